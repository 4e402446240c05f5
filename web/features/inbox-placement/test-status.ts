import type { InboxTest } from '@contracts/inbox-tests';
import type { Tone } from '../../components/ui/pill';

/** Part 2, section 4: running, completed and failed are displayed as such; anything else is neutral. */
export function testStatusDisplay(status: InboxTest['status'] | string): { label: string; tone: Tone } {
  switch (status) {
    case 'completed':
      return { label: 'Completed', tone: 'good' };
    case 'running':
      return { label: 'Running', tone: 'warn' };
    case 'failed':
      return { label: 'Failed', tone: 'bad' };
    case 'awaiting_email':
      return { label: 'Awaiting email', tone: 'none' };
    default:
      return {
        label: status ? status.charAt(0).toUpperCase() + status.slice(1).replace(/_/g, ' ') : 'Unknown',
        tone: 'none',
      };
  }
}

/** A test whose status can still change by itself: the list is polled while one exists. */
export function isActiveTest(test: Pick<InboxTest, 'status'>): boolean {
  return test.status === 'awaiting_email' || test.status === 'running';
}

/** The subject the test is known by: the received message's, else the default "Inbox Test {id}" (part 2, section 2). */
export function testSubject(test: Pick<InboxTest, 'id' | 'subject'>): string {
  return test.subject || `Inbox Test ${test.id}`;
}
