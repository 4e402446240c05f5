import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { users } from './users';

/**
 * An inbox placement test. Lifecycle: awaiting_email (created) -> running (its message reached the
 * inbound listener) -> completed (every seed answered, or the placement window ended) or failed
 * (no message within 24 hours). The counts are totals over the test's placements once completed.
 */
export const inboxTests = pgTable(
  'inbox_tests',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    status: text({ enum: ['awaiting_email', 'running', 'completed', 'failed'] })
      .notNull()
      .default('awaiting_email'),
    testType: text().notNull().default('automatic'),
    testEmailAddress: text().notNull().unique(),
    subject: text(),
    /** The sending provider detected on the received message, when known. */
    provider: text(),
    totalSeeds: integer().notNull().default(0),
    inboxCount: integer().notNull().default(0),
    spamCount: integer().notNull().default(0),
    missingCount: integer().notNull().default(0),
    /** The inbound message that started the test; a later message for the same test is not used. */
    inboundMessageId: integer(),
    receivedAt: timestamp({ withTimezone: true }),
    /** Why a test failed, in words. */
    failureReason: text(),
    /** Whether the message's one-click unsubscribe link is tried (the RFC 8058 POST); the user may turn it off per test. */
    oneClickUnsubscribeTest: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('inbox_tests_user_idx').on(t.userId, t.createdAt),
    index('inbox_tests_status_idx').on(t.status, t.createdAt),
  ],
);

/** The analysis of a test's message (authentication, connecting IP, content, SpamAssassin) and its score. */
export const inboxTestReports = pgTable('inbox_test_reports', {
  testId: belongsTo(() => inboxTests.id).primaryKey(),
  score: real().notNull(),
  /** The whole report as the API returns it (contracts/inbox-tests.ts InboxTestReport). */
  report: jsonb().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * A seed mailbox of the seed network, synced from SEED_NETWORK_FILE at start-up. Seeds that leave
 * the file are deactivated, not deleted, so past results keep their rows. The IMAP password is
 * encrypted with APP_SECRET (server/platform/security/secret-box.ts).
 */
export const seedMailboxes = pgTable('seed_mailboxes', {
  id: serial().primaryKey(),
  address: text().notNull().unique(),
  provider: text().notNull(),
  mailboxSystem: text().notNull(),
  region: text().notNull(),
  country: text().notNull(),
  imapHost: text().notNull(),
  imapPort: integer().notNull(),
  imapSecure: boolean().notNull(),
  /** false accepts a self-signed certificate (a private seed server). */
  imapTlsRejectUnauthorized: boolean().notNull().default(true),
  imapUser: text().notNull(),
  passwordEncrypted: text().notNull(),
  inboxFolder: text().notNull().default('INBOX'),
  spamFolders: text().array().notNull(),
  /** Delete a found test message from the seed mailbox, so seeds do not fill up. */
  deleteFound: boolean().notNull().default(false),
  active: boolean().notNull().default(true),
  /** Backoff after IMAP errors: failures in a row, the last one in words, and when to try again. */
  consecutiveFailures: integer().notNull().default(0),
  lastError: text(),
  nextPollAt: timestamp({ withTimezone: true }),
  lastPolledAt: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Where a test's message landed at one seed, or for a test without a seed network, the product's own
 * analyser (seedId null, isAnalyser). Provider, region, country and address are copied from the seed
 * when the test is created, so results stay as they were when the network changes.
 */
export const inboxTestPlacements = pgTable(
  'inbox_test_placements',
  {
    id: serial().primaryKey(),
    testId: belongsTo(() => inboxTests.id),
    seedId: integer().references(() => seedMailboxes.id, { onDelete: 'set null' }),
    isAnalyser: boolean().notNull().default(false),
    provider: text().notNull(),
    mailboxSystem: text().notNull(),
    region: text().notNull(),
    country: text().notNull(),
    address: text(),
    /** null while the seed has not answered yet. */
    placement: text({ enum: ['inbox', 'spam', 'missing'] }),
    /** The folder it was found in, and for Gmail the category tab (Promotions, Social, ...). */
    folder: text(),
    tab: text(),
    /** Why it is missing when that is not simply "not found" (seed removed, login failed). */
    note: text(),
    foundAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('inbox_test_placements_seed').on(t.testId, t.seedId),
    index('inbox_test_placements_test_idx').on(t.testId),
  ],
);
