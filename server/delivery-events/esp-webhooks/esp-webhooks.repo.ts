import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { ESP_WEBHOOK_PROVIDERS, type EspWebhookProvider } from '@contracts/esp-webhooks';
import type { Executor } from '../../platform/db/client';
import { deliveryEvents, espWebhookNonces, espWebhookSettings } from '../../platform/db/schema/index';

// The ESP webhooks' own tables: each account's verification secrets, when each provider's last event arrived, and
// the signature tokens seen within their replay window.

const ofProvider = (userId: number, provider: EspWebhookProvider) =>
  and(eq(espWebhookSettings.userId, userId), eq(espWebhookSettings.provider, provider));

export async function sealedSecretOf(ex: Executor, userId: number, provider: EspWebhookProvider) {
  const [row] = await ex
    .select({ secret: espWebhookSettings.secretEncrypted })
    .from(espWebhookSettings)
    .where(ofProvider(userId, provider));
  return row?.secret ?? null;
}

export async function listSettings(ex: Executor, userId: number) {
  return ex
    .select({
      provider: espWebhookSettings.provider,
      secretSet: sql<boolean>`${espWebhookSettings.secretEncrypted} IS NOT NULL`,
      lastEventAt: espWebhookSettings.lastEventAt,
    })
    .from(espWebhookSettings)
    .where(eq(espWebhookSettings.userId, userId));
}

/** Messages each ESP reported it did not send (dropped, suppressed), per provider, since `since`. */
export async function countDroppedSince(ex: Executor, userId: number, since: Date) {
  return ex
    .select({ provider: deliveryEvents.source, count: sql<number>`count(*)::int` })
    .from(deliveryEvents)
    .where(
      and(
        eq(deliveryEvents.userId, userId),
        gte(deliveryEvents.occurredAt, since),
        eq(deliveryEvents.eventType, 'dropped'),
        inArray(deliveryEvents.source, [...ESP_WEBHOOK_PROVIDERS]),
      ),
    )
    .groupBy(deliveryEvents.source);
}

export async function saveSealedSecret(ex: Executor, userId: number, provider: EspWebhookProvider, box: string | null) {
  await ex
    .insert(espWebhookSettings)
    .values({ userId, provider, secretEncrypted: box })
    .onConflictDoUpdate({
      target: [espWebhookSettings.userId, espWebhookSettings.provider],
      set: { secretEncrypted: box, updatedAt: sql`now()` },
    });
}

export async function markEventArrived(ex: Executor, userId: number, provider: EspWebhookProvider) {
  await ex
    .insert(espWebhookSettings)
    .values({ userId, provider, lastEventAt: sql`now()` })
    .onConflictDoUpdate({
      target: [espWebhookSettings.userId, espWebhookSettings.provider],
      set: { lastEventAt: sql`now()` },
    });
}

/**
 * Records a signature token's first use: false when it was seen before (a replay). Tokens older than `keepSeconds`
 * go first: a post that old is refused by its timestamp anyway.
 */
export async function claimNonce(
  ex: Executor,
  userId: number,
  provider: EspWebhookProvider,
  nonce: string,
  keepSeconds: number,
): Promise<boolean> {
  const mine = and(eq(espWebhookNonces.userId, userId), eq(espWebhookNonces.provider, provider));
  await ex
    .delete(espWebhookNonces)
    .where(and(mine, lt(espWebhookNonces.seenAt, sql`now() - make_interval(secs => ${keepSeconds})`)));
  const claimed = await ex
    .insert(espWebhookNonces)
    .values({ userId, provider, nonce })
    .onConflictDoNothing()
    .returning({ nonce: espWebhookNonces.nonce });
  return claimed.length === 1;
}
