import { dmarcMailbox } from './dmarc/dmarc-mailbox';
import { fblMailbox } from './feedback-loops/fbl-mailbox';
import { inboxTestMailbox } from './inbox-tests/inbox-test-mailbox';
import type { InboundMailbox } from './platform/smtp/addresses';

/** Every capability that receives mail on INBOUND_DOMAIN. The listener accepts nothing else. */
export const INBOUND_MAILBOXES: readonly InboundMailbox[] = [dmarcMailbox, fblMailbox, inboxTestMailbox];
