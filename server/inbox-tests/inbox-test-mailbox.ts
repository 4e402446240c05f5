import type { InboundMailbox } from '../platform/smtp/addresses';
import { isKnownTestRecipient } from './inbox-tests.store';
import { parseTestLocalPart } from './test-address';

/** A test's own address, which must name a test that exists, or test@ (matched later by the subject tag). */
export const inboxTestMailbox: InboundMailbox = {
  kind: 'inbox_test',
  owns: (local) => parseTestLocalPart(local) !== undefined,
  exists: isKnownTestRecipient,
};
