import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, real, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { DomainChecks } from '@contracts/domains';
import type { ScoreFactor } from '@contracts/reputation';
import { belongsTo } from './columns';
import { users } from './users';

/** A user's sending domain and the latest outcome of its DNS authentication checks. */
export const domains = pgTable(
  'domains',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    domain: text().notNull(),
    /** What the user said the domain is for (the public API's `type`, ADR 027): a From domain, or an MTA's own host domain. */
    type: text({ enum: ['sending', 'mta'] })
      .notNull()
      .default('sending'),
    status: text({ enum: ['healthy', 'warning', 'error', 'pending'] })
      .notNull()
      .default('pending'),
    isVerified: boolean().notNull().default(false),
    // Published by the owner as TXT at _inboxpulse.<domain> to prove control of the domain.
    verificationToken: text().notNull(),
    dkimSelectors: jsonb().$type<string[]>().notNull().default([]),
    notes: text(),
    /** The full outcome of the last check, as GET /api/domains/:id shows it. */
    checks: jsonb().$type<DomainChecks>(),
    spfRecord: text(),
    dkimRecord: text(),
    dmarcRecord: text(),
    spfStatus: text({ enum: ['valid', 'invalid', 'missing'] }),
    dkimStatus: text({ enum: ['valid', 'invalid', 'missing'] }),
    dmarcStatus: text({ enum: ['valid', 'invalid', 'missing'] }),
    reputationScore: real(),
    /** 0-100 terms of reputationScore (ADR 023). */
    reputationFactors: jsonb().$type<ScoreFactor[]>().notNull().default([]),
    /** From RDAP: the registrar's name and the registration date; rdapCheckedAt even when RDAP did not answer. */
    registrar: text(),
    registeredAt: timestamp({ withTimezone: true }),
    rdapCheckedAt: timestamp({ withTimezone: true }),
    lastCheckedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('domains_user_domain_key').on(t.userId, t.domain),
    index('domains_user_idx').on(t.userId, sql`${t.createdAt} DESC`),
  ],
);
