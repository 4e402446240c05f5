import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { users } from './users';

/**
 * A user's receiver for one ESP's event webhooks: the secret its posts are verified with (SendGrid's
 * verification key, Mailgun's signing key, Postmark's basic-auth credentials), sealed with the secret box,
 * and when its last verified post arrived.
 */
export const espWebhookSettings = pgTable(
  'esp_webhook_settings',
  {
    userId: belongsTo(() => users.id),
    /** sendgrid, mailgun, postmark, ses. */
    provider: text().notNull(),
    secretEncrypted: text(),
    lastEventAt: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider] })],
);

/**
 * The signature tokens a provider's posts carried (Mailgun's `token`), kept for as long as the post's
 * timestamp is accepted: a post seen again within that window is a replay and is refused.
 */
export const espWebhookNonces = pgTable(
  'esp_webhook_nonces',
  {
    userId: belongsTo(() => users.id),
    provider: text().notNull(),
    nonce: text().notNull(),
    seenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider, t.nonce] })],
);
