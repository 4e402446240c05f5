import type { ScoreFactor } from '@contracts/reputation';
import { formatNumber } from '../../../lib/format';

/** How a score was made: 100 minus each factor's points (ADR 023), so the user sees what to fix. */
export function ScoreFactors({ factors, testId }: { factors: ScoreFactor[]; testId: string }) {
  if (!factors.length)
    return <p className="text-sm text-muted-foreground">No score yet: it is made at the first check.</p>;
  return (
    <ul data-testid={testId} className="space-y-1 text-sm">
      {factors.map((factor) => (
        <li key={factor.label} className="flex flex-wrap justify-between gap-x-3">
          <span className="min-w-0">
            <span className="font-medium">{factor.label}</span>
            <span className="text-muted-foreground"> · {factor.detail}</span>
          </span>
          <span className={factor.points > 0 ? 'font-medium text-red-700' : 'text-muted-foreground'}>
            {factor.points > 0 ? `−${formatNumber(factor.points)}` : '0'}
          </span>
        </li>
      ))}
    </ul>
  );
}
