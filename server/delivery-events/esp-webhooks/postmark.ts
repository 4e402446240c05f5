import type { BounceClass } from '@contracts/delivery-events';
import { ignored, makeEvent, str, type RowOutcome } from '../delivery-event';

/*
 * Postmark's webhooks (https://postmarkapp.com/developer/webhooks/webhooks-overview): one record a POST, told apart
 * by RecordType. Postmark signs nothing: a post is authenticated by the secret URL (the webhook token) and, when the
 * user sets them, the basic-auth credentials Postmark sends from the URL (https://user:password@…, basic-auth.ts).
 */

/** Postmark's bounce types (its Bounce API's BounceType) and what each is here; a type not listed is not a bounce. */
const BOUNCES: Record<string, { bounceClass: BounceClass | null; category?: string } | 'deferred'> = {
  HardBounce: { bounceClass: 'hard' },
  BadEmailAddress: { bounceClass: 'hard' },
  DMARCPolicy: { bounceClass: 'hard', category: 'dmarc' },
  SoftBounce: { bounceClass: 'soft' },
  DnsError: { bounceClass: 'soft' },
  Blocked: { bounceClass: 'soft', category: 'blocked' },
  SpamNotification: { bounceClass: 'soft', category: 'spam' },
  Unknown: { bounceClass: null },
  Transient: 'deferred',
};

export function postmarkRow(body: Record<string, unknown>): RowOutcome {
  // Postmark's first delivery hook posted no RecordType (support article 1067's example): its DeliveredAt says it.
  const type = str(body.RecordType) ?? (body.DeliveredAt !== undefined ? 'Delivery' : '');
  const messageId = str(body.MessageID);
  switch (type) {
    case 'Delivery':
      return makeEvent({
        messageId,
        recipient: str(body.Recipient),
        eventType: 'delivered',
        time: body.DeliveredAt,
        response: str(body.Details),
      });
    case 'Bounce': {
      const kind = BOUNCES[str(body.Type) ?? ''];
      if (!kind)
        return ignored(`a ${str(body.Type)?.slice(0, 40) ?? 'typeless'} bounce record is not a delivery outcome`);
      const common = {
        messageId,
        recipient: str(body.Email),
        time: body.BouncedAt,
        sender: str(body.From),
        response: str(body.Details) || str(body.Description),
      };
      if (kind === 'deferred') return makeEvent({ ...common, eventType: 'deferred' });
      return makeEvent({ ...common, eventType: 'bounced', bounceClass: kind.bounceClass, category: kind.category });
    }
    case 'SpamComplaint':
      return makeEvent({
        messageId,
        recipient: str(body.Email),
        eventType: 'complaint',
        time: body.BouncedAt,
        sender: str(body.From),
      });
    default:
      return ignored(`${type.slice(0, 40) || 'a record without a RecordType'} is not a delivery outcome`);
  }
}
