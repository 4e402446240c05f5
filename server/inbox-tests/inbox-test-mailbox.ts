import type { InboundMailbox } from '../platform/smtp/addresses';
import { testIdAt } from './inbox-tests.repo';
import { parseTestLocalPart } from './test-address';

/**
 * A test's own address, which must name a test that exists (its id and unguessable token), or test@,
 * whose message is matched to a test later by the [TEST-<id>] tag in its subject.
 */
export const inboxTestMailbox: InboundMailbox = {
  kind: 'inbox_test',
  async resolve(db, local, address) {
    const parsed = parseTestLocalPart(local);
    if (parsed === undefined) return 'not_mine';
    if (parsed === 'generic') return { targetId: null };
    const id = await testIdAt(db, address);
    return id === parsed.id ? { targetId: id } : 'no_such_address';
  },
};
