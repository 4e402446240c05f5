import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { cn } from '../../../lib/utils';
import { API_KEY_PLACEHOLDER, QUICK_START_LABELS, QUICK_START_LANGUAGES, quickStartExample, type QuickStartLanguage } from '../quick-start';
import { CopyWithToast } from './copy-with-toast';

/**
 * Ready-to-run calls of GET and POST /api/domains against this server. The whole key is in them only
 * while it is on screen after generation; otherwise a placeholder the user pastes their key over.
 */
export function QuickStartExamples({ apiKey }: { apiKey: string | null }) {
  const [language, setLanguage] = useState<QuickStartLanguage>('curl');
  const code = quickStartExample(language, window.location.origin, apiKey ?? undefined);
  const baseId = useId();

  return (
    <Card data-testid="quick-start" className="min-w-0">
      <CardHeader>
        <CardTitle>Quick Start</CardTitle>
        <CardDescription>
          {apiKey ? (
            'These examples contain your new key: keep them private.'
          ) : (
            <>
              Replace <code className="font-mono">{API_KEY_PLACEHOLDER}</code> with your API key.
            </>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <LanguageTabs language={language} onLanguage={setLanguage} panelId={`${baseId}-panel`} />
        <div id={`${baseId}-panel`} role="tabpanel" aria-label={`${QUICK_START_LABELS[language]} example`} className="relative min-w-0">
          <pre data-testid="quick-start-code" className="max-w-full overflow-x-auto rounded-md bg-slate-950 p-4 pr-12 text-xs leading-relaxed text-slate-50">
            <code>{code}</code>
          </pre>
          <div className="absolute top-2 right-2 rounded-md bg-background">
            <CopyWithToast value={code} label={`Copy ${QUICK_START_LABELS[language]} example`} />
          </div>
        </div>
      </CardContent>
    </Card>
  );
}

function LanguageTabs({ language, onLanguage, panelId }: { language: QuickStartLanguage; onLanguage: (next: QuickStartLanguage) => void; panelId: string }) {
  const refs = useRef<Partial<Record<QuickStartLanguage, HTMLButtonElement | null>>>({});
  function onKey(event: KeyboardEvent) {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const count = QUICK_START_LANGUAGES.length;
    const next = QUICK_START_LANGUAGES[(QUICK_START_LANGUAGES.indexOf(language) + step + count) % count];
    onLanguage(next);
    refs.current[next]?.focus();
  }
  return (
    <div role="tablist" aria-label="Example language" className="inline-flex gap-1 rounded-md bg-muted p-1">
      {QUICK_START_LANGUAGES.map((id) => (
        <button
          key={id}
          ref={(element) => {
            refs.current[id] = element;
          }}
          type="button"
          role="tab"
          aria-selected={language === id}
          aria-controls={panelId}
          tabIndex={language === id ? 0 : -1}
          onClick={() => onLanguage(id)}
          onKeyDown={onKey}
          className={cn(
            'rounded-sm px-3 py-1.5 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
            language === id ? 'bg-background shadow-sm' : 'text-muted-foreground',
          )}
        >
          {QUICK_START_LABELS[id]}
        </button>
      ))}
    </div>
  );
}
