import { queueAlertEvaluation } from '../alerts/alerts.service';
import type { InboundMailbox } from '../platform/smtp/addresses';
import { testIdAt } from './inbox-tests.repo';
import { processTestMessage } from './process-test-message';
import { queueSeedPolling } from './seeds/poll-seed-mailboxes.job';
import { parseTestLocalPart } from './test-address';

/** A test's own address, which must name a test that exists (its id and unguessable token). */
export const inboxTestMailbox: InboundMailbox = {
  kind: 'inbox_test',
  async resolve(db, local, address) {
    const parsed = parseTestLocalPart(local);
    if (parsed === undefined) return 'not_mine';
    const id = await testIdAt(db, address);
    return id === parsed.id ? { targetId: id } : 'no_such_address';
  },
  /** Analyses the message for the tests it was sent to; processTestMessage stores the outcome with the reports. */
  async process(ctx, message) {
    const { pollSeeds, completedFor = [], ...outcome } = await processTestMessage(ctx, message);
    // After the test is running and committed: the seed poller looks for it at once, not at the next minute.
    if (pollSeeds) await queueSeedPolling(ctx.jobs);
    for (const userId of completedFor) await queueAlertEvaluation(ctx.jobs, userId);
    ctx.log[outcome.status === 'processed' ? 'info' : 'warn'](
      { messageId: message.id, ...outcome },
      'inbox test message processed',
    );
  },
};
