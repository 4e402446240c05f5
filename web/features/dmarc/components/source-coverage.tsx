import type { DmarcSource, SourceCoverage as Coverage } from '@contracts/dmarc';

const LEVEL_WORDS: Record<Coverage['spf'], string> = {
  covered: 'covers it',
  partly: 'covers part of its mail',
  'not covered': 'does not cover it',
};

/** What the domain's published SPF record says of the service's include, or that only the reports could be read. */
function recordText(coverage: Coverage, provider: string | null): string {
  const record = coverage.spfRecord;
  if (!record) return provider ? 'SPF record not checked for it: from the reports only.' : 'From the reports only.';
  const parts = [
    record.includedBy.length > 0 && `The SPF record of ${record.includedBy.join(', ')} includes ${record.include}.`,
    record.notIncludedBy.length > 0 &&
      `The SPF record of ${record.notIncludedBy.join(', ')} does not include ${record.include}.`,
  ];
  return parts.filter(Boolean).join(' ');
}

/** Whether the domain's SPF and DKIM cover a source, in words, and the fix for what they do not. */
export function SourceCoverage({ source }: { source: Pick<DmarcSource, 'coverage' | 'provider'> }) {
  const { coverage } = source;
  if (!coverage) return <span className="text-muted-foreground">–</span>;
  const fixes = [
    coverage.spfFix && `To fix SPF: ${coverage.spfFix}.`,
    coverage.dkimFix && `To fix DKIM: ${coverage.dkimFix}.`,
  ];
  return (
    <div className="space-y-1 text-xs" data-testid="source-coverage">
      <div>
        SPF {LEVEL_WORDS[coverage.spf]}; DKIM {LEVEL_WORDS[coverage.dkim]}.
      </div>
      <div className="text-muted-foreground">{recordText(coverage, source.provider)}</div>
      {fixes.filter(Boolean).map((fix) => (
        <div key={fix as string}>{fix}</div>
      ))}
    </div>
  );
}
