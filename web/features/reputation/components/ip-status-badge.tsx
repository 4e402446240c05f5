import type { IpStatus } from '@contracts/reputation';
import { Pill } from '../../../components/ui/pill';
import { ipStatusLabel, ipStatusTone } from '../status';

/** Part 2, section 4: the IP status badge. */
export function IpStatusBadge({ status }: { status: IpStatus | string }) {
  return (
    <Pill tone={ipStatusTone(status)} testId="ip-status">
      {ipStatusLabel(status)}
    </Pill>
  );
}
