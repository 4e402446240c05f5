import type { CheckStatus, Domain } from '../../../../contracts/domains';
import { cn } from '../../../lib/utils';
import { CHECK_STATUS, domainStatusLabel, domainStatusTone, TONE_PILL, type Tone } from '../status';

export function Pill({ tone, children, className, testId }: { tone: Tone; children: React.ReactNode; className?: string; testId?: string }) {
  return (
    <span
      data-tone={tone}
      data-testid={testId}
      className={cn('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold', TONE_PILL[tone], className)}
    >
      {children}
    </span>
  );
}

/** Part 2, section 4: the domain's overall status. */
export function DomainStatusBadge({ status }: { status: Domain['status'] }) {
  return (
    <Pill tone={domainStatusTone(status)} testId="domain-status">
      {domainStatusLabel(status)}
    </Pill>
  );
}

/** One DNS check's outcome: Valid, Invalid or Missing. A missing optional record (MTA-STS, TLS-RPT, BIMI) is no fault. */
export function CheckStatusBadge({ status, optional = false }: { status: CheckStatus; optional?: boolean }) {
  const { label } = CHECK_STATUS[status];
  const tone = optional && status === 'missing' ? 'none' : CHECK_STATUS[status].tone;
  return (
    <Pill tone={tone} testId="check-status">
      {label}
    </Pill>
  );
}
