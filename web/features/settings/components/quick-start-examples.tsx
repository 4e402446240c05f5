import { useId, useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { TabList } from '../../../components/ui/tab-list';
import {
  API_KEY_PLACEHOLDER,
  QUICK_START_LABELS,
  QUICK_START_LANGUAGES,
  quickStartExample,
  type QuickStartLanguage,
} from '../quick-start';
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
        <TabList
          ids={QUICK_START_LANGUAGES}
          labels={QUICK_START_LABELS}
          selected={language}
          onSelect={setLanguage}
          label="Example language"
          tabIdOf={(id) => `${baseId}-tab-${id}`}
          panelIdOf={() => `${baseId}-panel`}
          className="inline-flex"
        />
        <div
          id={`${baseId}-panel`}
          role="tabpanel"
          aria-label={`${QUICK_START_LABELS[language]} example`}
          className="relative min-w-0"
        >
          <pre
            data-testid="quick-start-code"
            className="max-w-full overflow-x-auto rounded-md bg-slate-950 p-4 pr-12 text-xs leading-relaxed text-slate-50"
          >
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
