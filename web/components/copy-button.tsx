import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from './ui/button';

/** Part 2, section 9: the copy confirmation stays 2 seconds. */
export const COPY_CONFIRMATION_MS = 2000;

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * A button that copies `value`; its confirmation is shown and announced for 2 seconds. Without
 * `children` it is an icon button named by `label`; with them it shows them as its visible text.
 */
export function CopyButton({
  value,
  label,
  children,
  onCopied,
}: {
  value: string;
  label: string;
  children?: ReactNode;
  /** Called once the value is on the clipboard (a page that also toasts it). */
  onCopied?: () => void;
}) {
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    let next: CopyState = 'copied';
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // No clipboard (an insecure page, a refused permission): the value stays selectable on screen.
      next = 'failed';
    }
    setState(next);
    if (next === 'copied') onCopied?.();
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), COPY_CONFIRMATION_MS);
  }

  const icon =
    state === 'copied' ? <Check className="text-green-600" aria-hidden="true" /> : <Copy aria-hidden="true" />;
  return (
    <span className="inline-flex items-center">
      {children ? (
        <Button variant="outline" size="sm" aria-label={label} title={label} onClick={() => void copy()}>
          {icon}
          {children}
        </Button>
      ) : (
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={label}
          title={label}
          onClick={() => void copy()}
        >
          {icon}
        </Button>
      )}
      <span aria-live="polite" className="sr-only">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy; select the text instead' : ''}
      </span>
    </span>
  );
}
