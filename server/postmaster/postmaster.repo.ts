import { and, asc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import { POSTMASTER_PROVIDER, type PostmasterDay } from '@contracts/postmaster';
import type { Executor } from '../platform/db/client';
import { googleOauthStates, integrations, postmasterStats } from '../platform/db/schema/index';

/*
 * The tables of Google Postmaster Tools: the sign-ins under way (google_oauth_states), the imported
 * figures (postmaster_stats), and the user's google-postmaster row of `integrations`, which this
 * capability writes (the integrations capability lists and uninstalls it like any other).
 */

export type PostmasterIntegration = typeof integrations.$inferSelect;

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

const ownRow = (userId: number) => and(eq(integrations.userId, userId), eq(integrations.provider, POSTMASTER_PROVIDER));

export async function findPostmasterIntegration(
  ex: Executor,
  userId: number,
): Promise<PostmasterIntegration | undefined> {
  const [row] = await ex.select().from(integrations).where(ownRow(userId));
  return row;
}

/** The row, locked to the end of the transaction (an import's writes against an uninstall or a reconnect). */
export async function lockPostmasterIntegration(
  ex: Executor,
  userId: number,
): Promise<PostmasterIntegration | undefined> {
  const [row] = await ex.select().from(integrations).where(ownRow(userId)).for('update');
  return row;
}

/** A (re)connected Google account: the refresh token sealed, the account's domains, ready for an import. */
export async function saveConnection(
  ex: Executor,
  userId: number,
  credentialsEncrypted: string,
  config: Record<string, string>,
): Promise<PostmasterIntegration> {
  const values = {
    credentialsEncrypted,
    config,
    status: 'active' as const,
    lastError: null,
    lastErrorAt: null,
    consecutiveFailures: 0,
    nextSyncAt: null,
    updatedAt: new Date(),
  };
  const [row] = await ex
    .insert(integrations)
    .values({ userId, provider: POSTMASTER_PROVIDER, type: 'analytics', ...values })
    .onConflictDoUpdate({ target: [integrations.userId, integrations.provider], set: values })
    .returning();
  return row;
}

export type IntegrationChange = Partial<
  Pick<
    PostmasterIntegration,
    | 'status'
    | 'config'
    | 'credentialsEncrypted'
    | 'lastSyncAt'
    | 'lastError'
    | 'lastErrorAt'
    | 'consecutiveFailures'
    | 'nextSyncAt'
  >
>;

export async function updatePostmasterIntegration(ex: Executor, id: number, change: IntegrationChange): Promise<void> {
  await ex
    .update(integrations)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(integrations.id, id));
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
