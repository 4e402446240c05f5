import type { CheckStatus, Domain } from '@contracts/domains';
import { Pill } from '../../../components/ui/pill';
import { CHECK_STATUS, domainStatusLabel, domainStatusTone } from '../status';

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
