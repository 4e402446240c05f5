import type { AnalysisFinding, InboxTestReport } from '@contracts/inbox-tests';
import { Pill, type Tone } from '../../../components/ui/pill';
import { AnalysisSection, formatPoints } from './analysis-parts';

const CATEGORIES: Array<[AnalysisFinding['category'], string]> = [
  ['authentication', 'Authentication'],
  ['reputation', 'Reputation'],
  ['content', 'Content'],
  ['spamassassin', 'SpamAssassin'],
];

const SEVERITY: Record<AnalysisFinding['severity'], { label: string; tone: Tone }> = {
  pass: { label: 'Pass', tone: 'good' },
  info: { label: 'Info', tone: 'none' },
  warning: { label: 'Warning', tone: 'warn' },
  error: { label: 'Error', tone: 'bad' },
};

function Finding({ finding }: { finding: AnalysisFinding }) {
  const severity = SEVERITY[finding.severity];
  return (
    <li className="space-y-1 border-b py-2 text-sm last:border-0">
      <div className="flex flex-wrap items-center gap-2">
        <Pill tone={severity.tone}>{severity.label}</Pill>
        <span className="min-w-0 flex-1 font-medium [overflow-wrap:anywhere]">{finding.title}</span>
        {finding.deduction > 0 && (
          <span className="text-xs font-semibold text-red-700">-{formatPoints(finding.deduction)}</span>
        )}
      </div>
      {finding.detail && <p className="text-muted-foreground [overflow-wrap:anywhere]">{finding.detail}</p>}
      {finding.fix && (
        <p className="[overflow-wrap:anywhere]">
          <span className="font-medium">Fix: </span>
          {finding.fix}
        </p>
      )}
    </li>
  );
}

/** Every finding, grouped by category (authentication, reputation, content, SpamAssassin). */
export function AnalysisFindings({ findings }: { findings: InboxTestReport['findings'] }) {
  const groups = CATEGORIES.map(([category, title]) => ({
    category,
    title,
    items: findings.filter((finding) => finding.category === category),
  })).filter((group) => group.items.length > 0);
  if (groups.length === 0) return null;
  return (
    <div className="grid gap-3 lg:grid-cols-2">
      {groups.map((group) => (
        <AnalysisSection key={group.category} title={group.title} testId={`findings-${group.category}`}>
          <ul aria-label={`${group.title} findings`}>
            {group.items.map((finding) => (
              <Finding key={finding.id} finding={finding} />
            ))}
          </ul>
        </AnalysisSection>
      ))}
    </div>
  );
}
