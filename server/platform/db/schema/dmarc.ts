import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { belongsTo } from './columns';
import { users } from './users';

// The shapes of the jsonb columns: authentication results and override reasons as reports give them.
export interface DkimAuthResult {
  domain: string;
  selector: string | null;
  result: string;
  humanResult: string | null;
}

export interface SpfAuthResult {
  domain: string;
  scope: string | null;
  result: string;
  humanResult: string | null;
}

export interface PolicyOverrideReason {
  type: string;
  comment: string | null;
}

/** bytea, which node-postgres hands back as a Buffer. */
const bytes = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * A report file as it was received (an uploaded file, or a mail's attachment, compressed as it came), kept
 * when a report in it could not be imported, so that nothing the user was sent disappears: its owner can
 * download it (GET /api/dmarc/reports/:id/raw). One row however many of its reports failed; purged with the
 * reports (dmarc.retention.ts), and at most the upload limit in size (ADR 017).
 */
export const dmarcReceivedFiles = pgTable('dmarc_received_files', {
  id: serial().primaryKey(),
  userId: belongsTo(() => users.id),
  fileName: text().notNull(),
  data: bytes().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * One uploaded DMARC aggregate report, or one failed import of one (status 'failed', `error` set,
 * report fields null: NULLs never collide in the dedupe key, so each failure keeps its own row).
 */
export const dmarcReports = pgTable(
  'dmarc_reports',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    status: text({ enum: ['imported', 'failed'] }).notNull(),
    error: text(),
    fileName: text().notNull(),
    rawSize: integer().notNull(),
    /** policy_published/domain. */
    domain: text(),
    /** The XML schema the report follows: rfc9990 when <feedback> is in its namespace, else rfc7489. Null on rows stored before it was kept. */
    schema: text({ enum: ['rfc7489', 'rfc9990'] }),
    /** <feedback><version>, as written. */
    version: text(),
    orgName: text(),
    reportId: text(),
    email: text(),
    dateBegin: timestamp({ withTimezone: true }),
    dateEnd: timestamp({ withTimezone: true }),
    /** RFC 9990 report_metadata/generator: the reporter's software. */
    generator: text(),
    /** RFC 9990 policy_published/discovery_method: psl or treewalk. */
    discoveryMethod: text(),
    adkim: text(),
    aspf: text(),
    p: text(),
    sp: text(),
    np: text(),
    pct: integer(),
    fo: text(),
    testing: text(),
    /**
     * For a mailed report: whether the mail proved it came from the reporting organisation (a DKIM
     * signature or DMARC pass for the organisational domain of the report's e-mail). Null for an upload:
     * the user brought it. Anyone can mail a report, so an unauthenticated one is shown as such.
     */
    senderAuthenticated: boolean(),
    /**
     * Why an unauthenticated report's mail did not prove its reporter (report-sender.ts), for the owner. Such a
     * report is kept apart: not in the analytics nor dmarc_source_days, within its own allowance (import-report.ts).
     */
    unauthenticatedReason: text(),
    /** What was recovered to read the report (bad UTF-8 replaced, a stray "&" read as text ...), in words; null when nothing was. */
    warnings: jsonb().$type<string[]>(),
    /** A failed import: the file it came in, as received, when it was kept (dmarcReceivedFiles). */
    receivedFileId: integer().references(() => dmarcReceivedFiles.id, { onDelete: 'set null' }),
    // Totals kept with the report so the list needs no join over its records.
    recordCount: integer().notNull().default(0),
    messageCount: integer().notNull().default(0),
    passCount: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('dmarc_reports_user_org_report_key').on(t.userId, t.orgName, t.reportId),
    index('dmarc_reports_user_begin_idx').on(t.userId, t.dateBegin),
    index('dmarc_reports_user_domain_begin_idx').on(t.userId, t.domain, t.dateBegin),
    // The reports list's order (failed imports, which have no period, by when they came): a page is read in order
    // from here, however many reports the user has, instead of sorting them all.
    index('dmarc_reports_user_listed_idx').on(
      t.userId,
      sql`coalesce(${t.dateBegin}, ${t.createdAt}) desc`,
      sql`${t.id} desc`,
    ),
    // The reporters' health (loadReporterActivity): every column it reads, for the reports the analytics count.
    index('dmarc_reports_reporters_idx')
      .on(t.userId, t.domain, t.orgName, t.dateEnd)
      .where(sql`${t.status} = 'imported' and ${t.senderAuthenticated} is not false`),
  ],
);

/** One <record> of a report: a source IP and what the receiver saw and did with its messages. */
export const dmarcRecords = pgTable(
  'dmarc_records',
  {
    id: serial().primaryKey(),
    reportId: belongsTo(() => dmarcReports.id),
    sourceIp: text().notNull(),
    count: integer().notNull(),
    disposition: text().notNull(),
    /** policy_evaluated: the aligned results DMARC was decided on. */
    dkimResult: text().notNull(),
    spfResult: text().notNull(),
    headerFrom: text().notNull(),
    envelopeFrom: text(),
    envelopeTo: text(),
    /** auth_results: the raw results, aligned or not. */
    dkimAuth: jsonb().$type<DkimAuthResult[]>().notNull(),
    spfAuth: jsonb().$type<SpfAuthResult[]>().notNull(),
    reason: jsonb().$type<PolicyOverrideReason[]>(),
  },
  (t) => [index('dmarc_records_report_idx').on(t.reportId)],
);

/**
 * The last report of each (user, domain, reporter) that a "reporter stopped" alert was raised for,
 * so the alert is raised once per silence, not every hour, and again if the reporter resumes and stops.
 */
export const dmarcReporterAlerts = pgTable(
  'dmarc_reporter_alerts',
  {
    userId: belongsTo(() => users.id),
    domain: text().notNull(),
    orgName: text().notNull(),
    lastReportAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.domain, t.orgName] })],
);

/**
 * The analytics' per-source figures, kept up to date as reports are stored and deleted (dmarc.repo.ts):
 * one row per user, UTC day (of the report's begin), domain, source IP and disposition, whatever the
 * number of reports and records behind it. GET /api/dmarc/analytics reads these instead of every record.
 */
export const dmarcSourceDays = pgTable(
  'dmarc_source_days',
  {
    userId: belongsTo(() => users.id),
    day: date({ mode: 'string' }).notNull(),
    domain: text().notNull(),
    sourceIp: text().notNull(),
    disposition: text().notNull(),
    total: bigint({ mode: 'number' }).notNull(),
    spfAligned: bigint({ mode: 'number' }).notNull(),
    dkimAligned: bigint({ mode: 'number' }).notNull(),
    /** Failed DMARC: neither aligned result passed. */
    failed: bigint({ mode: 'number' }).notNull(),
    /** Failed DMARC although raw SPF or DKIM passed for some domain. */
    failedMisaligned: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.day, t.domain, t.sourceIp, t.disposition] }),
    // One domain's days (the analytics of one domain, its timeline): the key above, led by the day, would read every
    // domain's rows of the period.
    index('dmarc_source_days_user_domain_day_idx').on(t.userId, t.domain, t.day),
  ],
);
