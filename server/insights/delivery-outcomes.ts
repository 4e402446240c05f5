import { sql } from 'drizzle-orm';
import { deliveryEvents } from '../platform/db/schema/index';

/*
 * A message is sent once; its outcome may change (delivered, then bounced by a late DSN): it counts by its latest
 * outcome only (ADR 053). The delivery-events capability counts that way, and so do the read models beside it
 * (this folder), which read the events table themselves: one definition for both, here where both may import it.
 */

/** A delivered or bounced event of a message and recipient that had a later, different outcome. */
const replaced = sql`exists (select 1 from ${deliveryEvents} later where later.user_id = ${deliveryEvents.userId}
  and later.message_id = ${deliveryEvents.messageId} and later.recipient = ${deliveryEvents.recipient}
  and later.event_type in ('delivered', 'bounced') and later.event_type <> ${deliveryEvents.eventType}
  and (later.occurred_at, later.event_type = 'bounced') > (${deliveryEvents.occurredAt}, ${deliveryEvents.eventType} = 'bounced'))`;

/**
 * Events that are the message's latest outcome of this type. A sent message is its latest outcome, delivered or
 * bounced (each message once): sent is the sum of the two counts, so the look for a later outcome runs once per event.
 */
export const latestOutcome = (type: 'delivered' | 'bounced') =>
  sql`${deliveryEvents.eventType} = ${type} and not ${replaced}`;
