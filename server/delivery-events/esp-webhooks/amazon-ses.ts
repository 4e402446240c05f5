import type { BounceClass } from '@contracts/delivery-events';
import { ignored, makeEvent, record, str, type RowOutcome } from '../delivery-event';

/*
 * Amazon SES notifications as SNS carries them (https://docs.aws.amazon.com/ses/latest/dg/notification-contents.html):
 * identity notifications name their kind in `notificationType`, configuration-set event publishing in `eventType`;
 * one notification may name several recipients, each an outcome here.
 */

const BOUNCE_CLASS: Record<string, BounceClass | null> = { Permanent: 'hard', Transient: 'soft', Undetermined: null };
/** SES did not send to an address on a suppression list: no mailbox provider saw the message. */
const SUPPRESSED = new Set(['Suppressed', 'OnAccountSuppressionList']);

const list = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.map(record).filter((r) => r !== undefined) : [];

export function sesRows(notificationText: string): RowOutcome[] {
  let notification: Record<string, unknown> | undefined;
  try {
    notification = record(JSON.parse(notificationText));
  } catch {
    return [ignored('the SNS message is not an SES notification (not JSON)')];
  }
  if (!notification) return [ignored('the SNS message is not an SES notification')];
  const type = str(notification.notificationType) ?? str(notification.eventType) ?? '';
  const mail = record(notification.mail);
  const base = { messageId: str(mail?.messageId), sender: str(mail?.source) };
  switch (type) {
    case 'Bounce': {
      const bounce = record(notification.bounce);
      const subType = str(bounce?.bounceSubType) ?? '';
      return list(bounce?.bouncedRecipients).map((r) =>
        makeEvent({
          ...base,
          recipient: str(r.emailAddress),
          eventType: SUPPRESSED.has(subType) ? 'dropped' : 'bounced',
          time: bounce?.timestamp,
          response: str(r.diagnosticCode),
          enhanced: str(r.status),
          bounceClass: BOUNCE_CLASS[str(bounce?.bounceType) ?? ''] ?? null,
          category: subType || null,
        }),
      );
    }
    case 'Complaint': {
      const complaint = record(notification.complaint);
      if (str(complaint?.complaintFeedbackType) === 'not-spam')
        return [ignored('a not-spam report is not a complaint')];
      return list(complaint?.complainedRecipients).map((r) =>
        makeEvent({ ...base, recipient: str(r.emailAddress), eventType: 'complaint', time: complaint?.timestamp }),
      );
    }
    case 'Delivery': {
      const delivery = record(notification.delivery);
      const ms = delivery?.processingTimeMillis;
      return (Array.isArray(delivery?.recipients) ? delivery.recipients : []).map((recipient) =>
        makeEvent({
          ...base,
          recipient: str(recipient),
          eventType: 'delivered',
          time: delivery?.timestamp,
          response: str(delivery?.smtpResponse),
          deliveryTimeMs: typeof ms === 'number' ? ms : null,
        }),
      );
    }
    case 'DeliveryDelay': {
      const delay = record(notification.deliveryDelay);
      return list(delay?.delayedRecipients).map((r) =>
        makeEvent({
          ...base,
          recipient: str(r.emailAddress),
          eventType: 'deferred',
          time: delay?.timestamp,
          response: str(r.diagnosticCode),
          enhanced: str(r.status),
        }),
      );
    }
    case 'Reject': {
      // Refused by SES itself (a virus, ...): never sent to any of the message's recipients.
      const reason = str(record(notification.reject)?.reason);
      const recipients = Array.isArray(mail?.destination) ? mail.destination : [];
      return recipients.map((recipient) =>
        makeEvent({
          ...base,
          recipient: str(recipient),
          eventType: 'dropped',
          time: mail?.timestamp,
          response: reason,
        }),
      );
    }
    default:
      return [ignored(`${type.slice(0, 40) || 'a notification without a type'} is not a delivery outcome`)];
  }
}
