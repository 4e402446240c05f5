import { CircleCheck, CircleX, Clock, LoaderCircle } from 'lucide-react';
import type { InboxTest } from '@contracts/inbox-tests';
import { Pill } from '../../../components/ui/pill';
import { testStatusDisplay } from '../test-status';

function StatusIcon({ status }: { status: string }) {
  const className = 'mr-1 size-3.5';
  if (status === 'completed') return <CircleCheck className={className} aria-hidden="true" />;
  if (status === 'running') return <LoaderCircle className={`${className} animate-spin`} aria-hidden="true" />;
  if (status === 'failed') return <CircleX className={className} aria-hidden="true" />;
  // Part 2, section 4: any other status gets a neutral icon.
  return <Clock className={className} aria-hidden="true" />;
}

export function TestStatusBadge({ test }: { test: Pick<InboxTest, 'id' | 'status'> }) {
  const { label, tone } = testStatusDisplay(test.status);
  return (
    <Pill tone={tone} testId={`inbox-test-status-${test.id}`}>
      <StatusIcon status={test.status} />
      {label}
    </Pill>
  );
}
