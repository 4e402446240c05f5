import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';

/** A guide's card: a heading (with an icon where the guide has one) over a short muted text. */
export function TextCard({
  title,
  icon,
  className,
  children,
}: {
  title: ReactNode;
  icon?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Card className={className}>
      <CardHeader className="pb-2">
        <CardTitle as="h3" className={icon ? 'flex items-center gap-2 text-lg' : 'text-lg'}>
          {icon}
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent className="text-sm text-muted-foreground">{children}</CardContent>
    </Card>
  );
}
