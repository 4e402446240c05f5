import { customType, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** bytea, which node-postgres hands back as a Buffer. */
const bytes = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});

/**
 * Every message that reaches the product: through the inbound SMTP listener or an operator's IMAP
 * mailbox. It is written before the sender is told "250 queued" (or before the IMAP message is
 * flagged seen), then processed by a job, so nothing is lost when a process dies in between.
 * The raw message is dropped once processed; kept for failed and unrouted ones so an operator can look.
 */
export const inboundMessages = pgTable(
  'inbound_messages',
  {
    id: serial().primaryKey(),
    /** What it was addressed to: 'dmarc' (the report address), 'inbox_test' (a test address) or 'fbl' (feedback loops). */
    kind: text({ enum: ['dmarc', 'inbox_test', 'fbl'] }).notNull(),
    /** 'smtp' or 'imap'. */
    source: text({ enum: ['smtp', 'imap'] }).notNull(),
    /** For IMAP: mailbox, UIDVALIDITY and UID, so a message fetched twice is stored once. */
    sourceKey: text(),
    remoteIp: text(),
    helo: text(),
    /**
     * The TLS the sending server used to hand it over ("TLSv1.3 TLS_AES_256_GCM_SHA384"), 'none' over plain SMTP, null
     * when it did not come by SMTP (IMAP) or arrived before this was kept.
     */
    tls: text(),
    mailFrom: text(),
    rcptTo: text().array().notNull(),
    /**
     * What the recipients named, resolved by the capability's mailbox when the listener accepted them
     * (at RCPT time): the ids of the inbox tests whose own addresses it was sent to. Empty for mail to
     * a mailbox as a whole (dmarc@), and for reports fetched over IMAP.
     */
    targetIds: integer().array().notNull().default([]),
    size: integer().notNull(),
    raw: bytes(),
    /** When a failed or unrouted message's body was dropped and only its headers kept (a day after processing). */
    bodyDroppedAt: timestamp({ withTimezone: true }),
    status: text({ enum: ['received', 'processed', 'failed', 'unrouted'] })
      .notNull()
      .default('received'),
    /** The domains its reports cover (lower case), so unrouted ones can be replayed once an owner verifies. */
    reportDomains: text().array().notNull().default([]),
    /** What processing found, in words: the failure, or where the reports went. */
    result: text(),
    attempts: integer().notNull().default(0),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('inbound_messages_source_key').on(t.sourceKey),
    index('inbound_messages_status_idx').on(t.status, t.receivedAt),
  ],
);
