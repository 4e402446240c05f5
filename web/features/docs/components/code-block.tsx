import { Copy } from 'lucide-react';
import { CopyButton } from '../../../components/copy-button';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';

/** The toast a copy button shows (part 2, section 2: Webhook documentation). */
export const COPIED_TOAST = 'Copied to clipboard';

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: COPIED_TOAST });
  } catch {
    // No clipboard (an insecure page, a refused permission): the code stays selectable on screen.
    toast({ title: 'Could not copy', description: 'Select the code and copy it instead.', variant: 'destructive' });
  }
}

/**
 * A block of code with its language and a copy button. The button confirms with a toast, or with
 * `confirm="check"` with a check mark for 2 seconds (the Postfix guide, part 2, section 2).
 */
export function CodeBlock({
  code,
  language,
  label,
  confirm = 'toast',
}: {
  code: string;
  language: string;
  label: string;
  confirm?: 'toast' | 'check';
}) {
  return (
    <figure
      className="overflow-hidden rounded-lg border bg-slate-950 text-slate-50"
      data-testid="code-block"
      data-language={language}
    >
      <figcaption className="flex items-center justify-between gap-2 border-b border-slate-800 px-3 py-1.5 text-xs text-slate-400">
        <span className="min-w-0 break-all">{label}</span>
        {confirm === 'check' ? (
          <span className="shrink-0 text-foreground">
            <CopyButton value={code} label={`Copy ${label}`}>
              Copy
            </CopyButton>
          </span>
        ) : (
          <Button
            variant="ghost"
            size="sm"
            className="h-7 text-slate-300 hover:bg-slate-800 hover:text-white"
            aria-label={`Copy ${label}`}
            onClick={() => void copy(code)}
          >
            <Copy aria-hidden="true" />
            Copy
          </Button>
        )}
      </figcaption>
      <pre className="overflow-x-auto p-4 text-xs leading-relaxed">
        <code>{code}</code>
      </pre>
    </figure>
  );
}

/** Inline code; a long URL or path breaks anywhere rather than widening the page on a phone. */
export function Code({ children }: { children: string }) {
  return <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-[0.85em] wrap-anywhere">{children}</code>;
}
