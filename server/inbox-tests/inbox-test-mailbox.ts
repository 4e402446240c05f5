import type { InboundMailbox } from '../platform/smtp/addresses';
import { testIdAt } from './inbox-tests.repo';
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
};
