import { useState } from 'react';
import { Eye, EyeOff, TriangleAlert } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { CopyWithToast } from './copy-with-toast';

/** How a hidden secret reads: its prefix, the rest as dots, so its length and kind still show. */
export function maskSecret(value: string): string {
  const underscore = value.indexOf('_');
  const prefix = underscore >= 0 && underscore < 8 ? value.slice(0, underscore + 1) : '';
  return prefix + '•'.repeat(Math.min(Math.max(value.length - prefix.length, 8), 32));
}

/**
 * A key or token right after it was made: the only time it is on screen in full. It can be copied,
 * the warning says plainly that it will not be shown again, and Done puts the preview back. With
 * `hideable` it starts hidden behind Show/Hide (a token is often read out on a shared screen).
 */
export function RevealedSecret({
  value,
  noun,
  hideable = false,
  onDone,
  testId,
}: {
  value: string;
  noun: string;
  hideable?: boolean;
  onDone: () => void;
  testId: string;
}) {
  const [visible, setVisible] = useState(!hideable);
  return (
    <div data-testid={testId} className="space-y-3 rounded-md border border-green-200 bg-green-50 p-4 text-green-950">
      <p className="text-sm font-semibold">Your new {noun}</p>
      <div className="flex min-w-0 items-start gap-2">
        <code
          data-testid={`${testId}-value`}
          className="min-w-0 flex-1 rounded border bg-background p-2 font-mono text-sm break-all text-foreground"
        >
          {visible ? value : maskSecret(value)}
        </code>
        {hideable && (
          <Button
            variant="outline"
            size="icon"
            className="size-9 shrink-0"
            aria-label={visible ? `Hide ${noun}` : `Show ${noun}`}
            aria-pressed={visible}
            onClick={() => setVisible(!visible)}
          >
            {visible ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
          </Button>
        )}
        <CopyWithToast value={value} label={`Copy ${noun}`} />
      </div>
      <p role="note" className="flex items-start gap-2 text-sm">
        <TriangleAlert className="mt-0.5 size-4 shrink-0 text-yellow-700" aria-hidden="true" />
        <span>
          Copy your {noun} now and keep it somewhere safe. It will not be shown again: we store only a fingerprint of
          it. If you lose it, regenerate it.
        </span>
      </p>
      <Button variant="outline" size="sm" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}
