import { useId, type ReactNode } from 'react';
import { AlertCircle, Info, TriangleAlert } from 'lucide-react';
import type { DomainChecks, Finding } from '@contracts/domains';
import { cn } from '../../../lib/utils';
import { Pill } from '../../../components/ui/pill';
import { CheckStatusBadge } from './domain-status-badge';
import { CopyButton } from '../../../components/copy-button';

const SEVERITY = {
  error: { label: 'Error', icon: AlertCircle, className: 'text-red-700' },
  warning: { label: 'Warning', icon: TriangleAlert, className: 'text-yellow-700' },
  info: { label: 'Note', icon: Info, className: 'text-sky-700' },
} as const;

export function Findings({ findings, okText }: { findings: Finding[]; okText?: string }) {
  if (findings.length === 0) return okText ? <p className="text-xs text-muted-foreground">{okText}</p> : null;
  return (
    <ul className="space-y-2" aria-label="Findings">
      {findings.map((finding, index) => {
        const severity = SEVERITY[finding.severity];
        const Icon = severity.icon;
        return (
          <li key={index} data-testid="finding" data-severity={finding.severity} className="flex gap-2 text-sm">
            <Icon className={cn('mt-0.5 size-4 shrink-0', severity.className)} aria-hidden="true" />
            <div className="min-w-0 space-y-1 wrap-anywhere">
              <p>
                <span className={cn('font-medium', severity.className)}>{severity.label}: </span>
                {finding.message}
              </p>
              {finding.fix && (
                <p className="text-muted-foreground" data-testid="finding-fix">
                  <span className="font-medium text-foreground">How to fix: </span>
                  {finding.fix}
                </p>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** A record as published: wrapped anywhere (a DKIM key is one long word), with a button to copy it whole. */
export function RecordText({
  record,
  copyLabel,
  missingText = 'No record found',
}: {
  record: string | null;
  copyLabel: string;
  missingText?: string;
}) {
  if (!record) return <p className="text-xs text-muted-foreground">{missingText}</p>;
  return (
    <div className="flex items-start gap-1">
      <code
        data-testid="record-text"
        className="block min-w-0 flex-1 break-all rounded bg-muted px-2 py-1 font-mono text-xs"
      >
        {record}
      </code>
      <CopyButton value={record} label={copyLabel} />
    </div>
  );
}

export interface CheckLike {
  status: DomainChecks['spf']['status'];
  record: string | null;
  findings: Finding[];
}

export function CheckSection({
  title,
  check,
  children,
  testId,
  recordOptional = false,
  optional = false,
  allClear = check.status === 'valid',
}: {
  title: string;
  check: CheckLike;
  children?: ReactNode;
  testId: string;
  /** DKIM and MX have no single record of their own: say nothing when there is none. */
  recordOptional?: boolean;
  /** A record a domain may well go without (MTA-STS, TLS-RPT, BIMI): missing is shown neutrally. */
  optional?: boolean;
  /** Whether "No problems found." may be said (DKIM: only when no selector has findings either). */
  allClear?: boolean;
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} data-testid={testId} className="space-y-2 rounded-md border p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={titleId} className="text-sm font-semibold">
          {title}
        </h4>
        <CheckStatusBadge status={check.status} optional={optional} />
      </div>
      {!(recordOptional && !check.record) && <RecordText record={check.record} copyLabel={`Copy ${title} record`} />}
      {children}
      <Findings findings={check.findings} okText={allClear ? 'No problems found.' : undefined} />
    </section>
  );
}

export function Limit({ used, limit, text }: { used: number; limit: number; text: string }) {
  const tone = used > limit ? 'bad' : used === limit ? 'warn' : 'good';
  return (
    <Pill tone={tone}>
      {used} of {limit} {text}
    </Pill>
  );
}
