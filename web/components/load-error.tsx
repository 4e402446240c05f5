import { Button } from './ui/button';
import { Card } from './ui/card';
import { cn } from '../lib/utils';

/**
 * What a part of a page shows when its data could not be loaded: the reason and a way to ask again.
 * `inline` sits in a panel or dialog; `card` stands in for a whole page's list.
 */
export function LoadError({
  message,
  onRetry,
  variant = 'inline',
  className,
}: {
  message: string;
  onRetry: () => unknown;
  variant?: 'inline' | 'card';
  className?: string;
}) {
  if (variant === 'card') {
    return (
      <Card role="alert" className={cn('flex flex-col items-center gap-3 p-8 text-center', className)}>
        <p className="font-medium">{message}</p>
        <Button variant="outline" onClick={() => void onRetry()}>
          Try again
        </Button>
      </Card>
    );
  }
  return (
    <div role="alert" className={cn('flex flex-wrap items-center gap-3 text-sm', className)}>
      <span>{message}</span>
      <Button size="sm" variant="outline" onClick={() => void onRetry()}>
        Try again
      </Button>
    </div>
  );
}
