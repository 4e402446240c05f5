import { ExternalLink, Wrench } from 'lucide-react';
import { Link } from 'react-router';
import type { ComplianceEvidence, ComplianceRule } from '@contracts/compliance';
import { formatDateTime } from '../../../lib/format';
import { PATHS } from '../../../lib/paths';
import { VerdictPill } from './verdict-pill';

const SOURCE_LABELS: Record<ComplianceEvidence['source'], string> = {
  'dns-check': 'DNS check',
  'inbox-test': 'Inbox test',
  postmaster: 'Postmaster Tools',
  complaints: 'Complaints',
  'smtp-replies': 'SMTP replies',
};

function Evidence({ evidence }: { evidence: ComplianceEvidence }) {
  return (
    <li className="text-sm">
      <span className="font-medium">{SOURCE_LABELS[evidence.source]}</span>
      {evidence.at ? <span className="text-muted-foreground"> · {formatDateTime(evidence.at)}</span> : null}
      <span className="block text-muted-foreground">
        {evidence.text}
        {evidence.testId !== undefined ? (
          <>
            {' '}
            <Link className="underline" to={PATHS.inboxPlacement}>
              Open inbox tests
            </Link>
          </>
        ) : null}
      </span>
    </li>
  );
}

/** One rule: the provider's words and page, the verdict, what it rests on, and the fix. */
export function RuleRow({ rule }: { rule: ComplianceRule }) {
  return (
    <li
      id={rule.id}
      className="space-y-2 border-t pt-4 first:border-t-0 first:pt-0"
      data-rule={rule.id}
      data-verdict={rule.verdict}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">{rule.title}</h3>
        <VerdictPill verdict={rule.verdict} />
      </div>
      <blockquote className="border-l-2 pl-3 text-sm italic text-muted-foreground">
        “{rule.wording}”{' '}
        <a
          className="inline-flex items-center gap-1 not-italic underline"
          href={rule.sourceUrl}
          target="_blank"
          rel="noreferrer"
        >
          Source
          <ExternalLink className="size-3" aria-hidden="true" />
        </a>
      </blockquote>
      <ul aria-label={`Evidence for ${rule.title}`} className="space-y-1">
        {rule.evidence.map((e, i) => (
          <Evidence key={i} evidence={e} />
        ))}
      </ul>
      {rule.fix ? (
        <p className="flex gap-2 text-sm">
          <Wrench className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            <span className="font-medium">Fix: </span>
            {rule.fix}
          </span>
        </p>
      ) : null}
    </li>
  );
}
