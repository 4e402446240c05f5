import { ignored, makeEvent, record, str, type RowOutcome } from '../delivery-event';

/*
 * Mailjet's Event API (https://dev.mailjet.com/email/guides/webhooks/): one event a POST, or an array when "group
 * events" is on, authenticated by the basic-auth credentials in the URL the user gives Mailjet (basic-auth.ts) or the
 * secret URL alone.
 */

/**
 * The message's id. MessageID is a JSON number past 2^53, which no JSON reader keeps exact: the GUID (or the sent
 * event's string copy of the id) names the message the same way in each of its events.
 */
const messageIdOf = (event: Record<string, unknown>) =>
  str(event.Message_GUID) ?? str(event.mj_message_id) ?? str(event.MessageID);

function mailjetRow(item: unknown): RowOutcome {
  const event = record(item);
  if (!event) return ignored('not an event object');
  const type = str(event.event) ?? '';
  const base = { messageId: messageIdOf(event), recipient: str(event.email), time: event.time };
  switch (type) {
    case 'sent':
      return makeEvent({ ...base, eventType: 'delivered', response: str(event.smtp_reply) });
    case 'bounce': {
      const related = str(event.error_related_to);
      return makeEvent({
        ...base,
        eventType: 'bounced',
        response: str(event.comment) ?? str(event.error),
        bounceClass: event.hard_bounce === true ? 'hard' : 'soft',
        // Mailjet's "spam" errors are the receiver blocking the sender or its content.
        category: related === 'spam' ? 'blocked' : (related ?? null),
      });
    }
    case 'spam':
      return makeEvent({ ...base, eventType: 'complaint' });
    case 'blocked':
      // Never sent: Mailjet held it back (a recipient that bounced before, a duplicate in a campaign, ...).
      return makeEvent({ ...base, eventType: 'dropped', response: str(event.error) ?? str(event.comment) });
    default:
      return ignored(`${type.slice(0, 40) || 'an event without a type'} is not a delivery outcome`);
  }
}

export const mailjetRows = (events: unknown[]): RowOutcome[] => events.map(mailjetRow);
