import {
  date,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { belongsTo } from './columns';
import { integrations } from './integrations';
import { users } from './users';

/** One entry of a day's ipReputations: how many of the domain's sending IPs Gmail puts in a reputation category. */
export interface PostmasterIpReputation {
  reputation: string;
  ipCount: number;
  sampleIps: string[];
}

/** One entry of a day's deliveryErrors: the share of the day's mail Gmail refused or deferred for one reason. */
export interface PostmasterDeliveryError {
  errorClass: string;
  errorType: string;
  errorRatio: number;
}

/** One entry of a day's spammyFeedbackLoops: a Feedback-ID identifier with a high spam rate. */
export interface PostmasterFeedbackLoop {
  id: string;
  spamRatio: number;
}

/**
 * Gmail's traffic statistics for one of the user's domains and one day, as Postmaster Tools
 * (domains.trafficStats) reports them, imported daily (docs/decisions/030). Ratios are Google's,
 * 0 to 1; a metric Google leaves out for the day (too little traffic) is null. The import writes
 * over a day it already has, so Google's late corrections replace the first figures.
 */
export const postmasterStats = pgTable(
  'postmaster_stats',
  {
    id: serial().primaryKey(),
    userId: belongsTo(() => users.id),
    /** The google-postmaster integration that imported it: uninstalling the source removes its figures. */
    integrationId: belongsTo(() => integrations.id),
    domain: text().notNull(),
    date: date({ mode: 'string' }).notNull(),
    userReportedSpamRatio: doublePrecision(),
    userReportedSpamRatioLowerBound: doublePrecision(),
    userReportedSpamRatioUpperBound: doublePrecision(),
    spfSuccessRatio: doublePrecision(),
    dkimSuccessRatio: doublePrecision(),
    dmarcSuccessRatio: doublePrecision(),
    inboundEncryptionRatio: doublePrecision(),
    outboundEncryptionRatio: doublePrecision(),
    /** HIGH, MEDIUM, LOW or BAD; null when Google gave none. */
    domainReputation: text(),
    ipReputations: jsonb().$type<PostmasterIpReputation[]>().notNull().default([]),
    deliveryErrors: jsonb().$type<PostmasterDeliveryError[]>().notNull().default([]),
    spammyFeedbackLoops: jsonb().$type<PostmasterFeedbackLoop[]>().notNull().default([]),
    importedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('postmaster_stats_user_domain_date_key').on(t.userId, t.domain, t.date),
    index('postmaster_stats_integration_id_idx').on(t.integrationId),
  ],
);

/**
 * A Google sign-in under way: the OAuth `state` (stored as its SHA-256) of one signed-in session,
 * used once at /oauth/google/callback and only within minutes, with the PKCE verifier of the
 * authorization request. Rows are removed when used, and expired ones on the next sign-in.
 */
export const googleOauthStates = pgTable(
  'google_oauth_states',
  {
    stateHash: text().primaryKey(),
    userId: belongsTo(() => users.id),
    /** The SHA-256 of the session cookie that started it: another browser (or a signed-out one) cannot finish it. */
    sessionHash: text().notNull(),
    codeVerifier: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('google_oauth_states_expires_at_idx').on(t.expiresAt),
    index('google_oauth_states_user_id_idx').on(t.userId),
  ],
);
