import { and, asc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import type { PostmasterDay } from '@contracts/postmaster';
import type { Executor } from '../platform/db/client';
import { googleOauthStates, postmasterStats } from '../platform/db/schema/index';

/*
 * The tables of Google Postmaster Tools: the sign-ins under way (google_oauth_states) and the imported
 * figures (postmaster_stats). Its row of `integrations` is reached through the integrations' service
 * (postmaster-integration.ts).
 */

export interface NewOauthState {
  stateHash: string;
  userId: number;
  sessionHash: string;
  codeVerifier: string;
  expiresAt: Date;
}

/** Stores a sign-in under way, and drops the ones that expired (nobody can use them any more). */
export async function saveOauthState(ex: Executor, state: NewOauthState): Promise<void> {
  await ex.delete(googleOauthStates).where(lt(googleOauthStates.expiresAt, sql`now()`));
  await ex.insert(googleOauthStates).values(state);
}

/**
 * Uses a sign-in's state up: deleted in one statement, so the same state cannot finish two
 * callbacks. Returns it only when it was still live; an expired one is deleted all the same.
 */
export async function takeOauthState(
  ex: Executor,
  stateHash: string,
): Promise<typeof googleOauthStates.$inferSelect | undefined> {
  const [row] = await ex.delete(googleOauthStates).where(eq(googleOauthStates.stateHash, stateHash)).returning();
  return row && row.expiresAt.getTime() > Date.now() ? row : undefined;
}

/** Writes the days over what is stored for the same user, domain and day (Google corrects recent days). */
export async function upsertStats(
  ex: Executor,
  userId: number,
  integrationId: number,
  days: PostmasterDay[],
): Promise<void> {
  if (days.length === 0) return;
  const excluded = (column: string) => sql.raw(`excluded.${column}`);
  await ex
    .insert(postmasterStats)
    .values(days.map((day) => ({ ...day, userId, integrationId })))
    .onConflictDoUpdate({
      target: [postmasterStats.userId, postmasterStats.domain, postmasterStats.date],
      set: {
        integrationId: excluded('integration_id'),
        userReportedSpamRatio: excluded('user_reported_spam_ratio'),
        userReportedSpamRatioLowerBound: excluded('user_reported_spam_ratio_lower_bound'),
        userReportedSpamRatioUpperBound: excluded('user_reported_spam_ratio_upper_bound'),
        spfSuccessRatio: excluded('spf_success_ratio'),
        dkimSuccessRatio: excluded('dkim_success_ratio'),
        dmarcSuccessRatio: excluded('dmarc_success_ratio'),
        inboundEncryptionRatio: excluded('inbound_encryption_ratio'),
        outboundEncryptionRatio: excluded('outbound_encryption_ratio'),
        domainReputation: excluded('domain_reputation'),
        ipReputations: excluded('ip_reputations'),
        deliveryErrors: excluded('delivery_errors'),
        spammyFeedbackLoops: excluded('spammy_feedback_loops'),
        importedAt: sql`now()`,
      },
    });
}

/** The user's days from `from` to `to` (inclusive), of one domain or all, by domain then day. */
export async function listUserStats(
  ex: Executor,
  userId: number,
  from: string,
  to: string,
  domain?: string,
): Promise<PostmasterDay[]> {
  const rows = await ex
    .select()
    .from(postmasterStats)
    .where(
      and(
        eq(postmasterStats.userId, userId),
        gte(postmasterStats.date, from),
        lte(postmasterStats.date, to),
        domain === undefined ? undefined : eq(postmasterStats.domain, domain),
      ),
    )
    .orderBy(asc(postmasterStats.domain), asc(postmasterStats.date));
  return rows.map((row) => ({
    domain: row.domain,
    date: row.date,
    userReportedSpamRatio: row.userReportedSpamRatio,
    userReportedSpamRatioLowerBound: row.userReportedSpamRatioLowerBound,
    userReportedSpamRatioUpperBound: row.userReportedSpamRatioUpperBound,
    spfSuccessRatio: row.spfSuccessRatio,
    dkimSuccessRatio: row.dkimSuccessRatio,
    dmarcSuccessRatio: row.dmarcSuccessRatio,
    inboundEncryptionRatio: row.inboundEncryptionRatio,
    outboundEncryptionRatio: row.outboundEncryptionRatio,
    domainReputation: row.domainReputation as PostmasterDay['domainReputation'],
    ipReputations: row.ipReputations,
    deliveryErrors: row.deliveryErrors,
    spammyFeedbackLoops: row.spammyFeedbackLoops,
  }));
}
