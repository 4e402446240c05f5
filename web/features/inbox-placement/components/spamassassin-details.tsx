import type { SpamAssassinReport } from '@contracts/inbox-tests';
import { Pill } from '../../../components/ui/pill';
import { AnalysisSection, formatPoints } from './analysis-parts';

/** spamd's verdict and the rules that fired. */
export function SpamAssassinDetails({ spamAssassin }: { spamAssassin: SpamAssassinReport }) {
  const { score, threshold, isSpam, rules, error } = spamAssassin;
  return (
    <AnalysisSection title="SpamAssassin" testId="analysis-spamassassin">
      {error ? (
        <p className="text-sm text-muted-foreground">SpamAssassin could not check this message: {error}</p>
      ) : (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-semibold">
            {score === null ? 'No score' : formatPoints(score)}
            {threshold !== null && ` / ${formatPoints(threshold)} threshold`}
          </span>
          {isSpam !== null && <Pill tone={isSpam ? 'bad' : 'good'}>{isSpam ? 'Spam' : 'Not spam'}</Pill>}
        </p>
      )}
      {rules.length > 0 && (
        <ul aria-label="SpamAssassin rules" className="space-y-1 text-sm">
          {rules.map((rule) => (
            <li key={rule.name} className="grid grid-cols-[3.5rem_minmax(0,1fr)] gap-2 border-b py-1 last:border-0">
              <span className="text-right font-mono text-xs">
                {rule.score === null ? '' : formatPoints(rule.score)}
              </span>
              <span className="min-w-0 [overflow-wrap:anywhere]">
                <span className="font-mono text-xs">{rule.name}</span>
                {rule.description && <span className="text-muted-foreground"> {rule.description}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </AnalysisSection>
  );
}
