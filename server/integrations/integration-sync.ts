import { pluginById, type Integration as Plugin, type PluginId } from '@content/integrations';
import { addDays, DAY_MS, dayStart, utcDay } from '@contracts/utc-day';
import { keepConditionAlert, queueAlertEvaluation, resolveConditionAlert } from '../alerts/alerts.service';
import { replacePluginFigures } from '../delivery-events/delivery-events.service';
import type { AppContext } from '../platform/context';
import type { Executor } from '../platform/db/client';
import { appOutboundGuard } from '../platform/security/app-outbound-guard';
import { SecretBoxError } from '../platform/security/secret-box';
import { openSecrets } from './integration-credentials';
import {
  findIntegration,
  listDueIntegrations,
  lockIntegration,
  updateIntegration,
  type IntegrationRow,
} from './integrations.repo';
import { PROVIDERS } from './providers/index';
import {
  ProviderError,
  providerHttp,
  withoutSecrets,
  type DailyStats,
  type EspProvider,
  type PluginConfig,
  type ProviderHttp,
} from './providers/provider';
import { queueIntegrationSync } from './sync-integration.job';

/*
 * One sync of one installed plugin (docs/decisions/028): the provider's daily figures for the last
 * few days written over email_metrics (one row per provider and UTC day, mailbox provider and
 * sending IP ''), or, for a provider without statistics, a connection test. The outcome is kept on
 * the integration: lastSync, the last error in the provider's words, failures in a row, and when the
 * next scheduled sync may run (a 429's Retry-After, or an exponential back-off after failures).
 * Syncs that keep failing raise one alert, resolved by the next success. A provider the user signs in to
 * (SignInProvider) rides the same loop: the same round, job, retries and back-off, its own import (ADR 049).
 */

export type SyncContext = Pick<AppContext, 'db' | 'env' | 'dns' | 'jobs' | 'log'>;

/**
 * A provider the user connects by signing in to it (OAuth) instead of typing a key, Google Postmaster Tools: its
 * capability keeps the tokens and its own figures, so its sync is its own import, which keeps its outcome on the
 * integration row as a plugin's sync does (lastSyncAt, lastError, consecutiveFailures, nextSyncAt with backoffMs).
 * The list is server/integration-providers.ts: this capability cannot import the ones that build on it.
 */
export interface SignInProvider {
  id: PluginId;
  /** Synced once a day, in the first round after this UTC time (HH:MM): the provider publishes a day the day after. */
  dailyAfterUtc: string;
  /** Imports now; errors other than the provider's are thrown (the job retries them). */
  sync(ctx: SyncContext, row: IntegrationRow, now: Date): Promise<{ status: string }>;
}

/** Integrations queued by one round; the rest wait for the next (they are taken least recently synced first). */
const MAX_PER_ROUND = 5000;

/** Days read on every sync (today and the two before, which providers still complete), and on the first. */
export const SYNC_DAYS = 3;
export const FIRST_SYNC_DAYS = 30;
/** The alert is raised at this many failed syncs in a row. */
export const FAILURES_BEFORE_ALERT = 3;
/** After n failures in a row the next scheduled sync waits 2^(n-1) hours, at most a day. */
const BACKOFF_BASE_MS = 60 * 60 * 1000;
const BACKOFF_MAX_MS = 24 * 60 * 60 * 1000;

export function backoffMs(failures: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
}

/**
 * The integration row after a failed sync, for every provider on this loop: the error, one more failure in a row,
 * the back-off before the next sync, and 'error' once the failures are enough for an alert.
 */
export function failedSyncFields(failures: number, error: string, now: Date, status: IntegrationRow['status']) {
  return {
    lastError: error,
    lastErrorAt: now,
    consecutiveFailures: failures,
    nextSyncAt: new Date(now.getTime() + backoffMs(failures)),
    status: failures >= FAILURES_BEFORE_ALERT ? ('error' as const) : status,
  };
}

/** The integration row after the provider asked to wait: not a failure, and no sync before then. */
export function rateLimitedFields(error: string, waitSeconds: number, now: Date) {
  return { lastError: error, lastErrorAt: now, nextSyncAt: new Date(now.getTime() + waitSeconds * 1000) };
}

/** The condition key of an integration's failing-sync alert. */
export const syncAlertKey = (integrationId: number) => `integration:${integrationId}`;

export type SyncOutcome =
  | { status: 'synced'; days: number }
  | { status: 'checked' }
  | { status: 'failed'; error: string; failures: number }
  | { status: 'rate_limited'; error: string; retryAfterSeconds: number }
  | { status: 'skipped'; reason: string };

/** The provider's client with the integration's config (settings and opened secrets). */
export function providerOf(
  row: Pick<IntegrationRow, 'provider'>,
): { plugin: Plugin; provider: EspProvider } | undefined {
  const plugin = pluginById(row.provider);
  const provider = PROVIDERS[row.provider as keyof typeof PROVIDERS];
  return plugin && provider ? { plugin, provider } : undefined;
}

export function httpFor(ctx: Pick<AppContext, 'env' | 'dns'>, provider: EspProvider): ProviderHttp {
  return providerHttp(appOutboundGuard(ctx.env, ctx.dns), ctx.env, provider);
}

/** The last time `at` (HH:MM, UTC) came at or before `now`. */
function lastDailyTime(now: Date, at: string): Date {
  const [hours, minutes] = at.split(':').map(Number);
  const today = dayStart(utcDay(now)).getTime() + (hours * 60 + minutes) * 60_000;
  return new Date(today <= now.getTime() ? today : today - DAY_MS);
}

/** Queues a sync of every integration due one: a key's plugin every round, a sign-in provider's once a day. */
export async function queueDueSyncs(
  ctx: Pick<SyncContext, 'db' | 'jobs'>,
  signIn: readonly SignInProvider[],
  now = new Date(),
): Promise<number> {
  const providers = [...Object.keys(PROVIDERS), ...signIn.map((p) => p.id)];
  const syncedBefore = Object.fromEntries(signIn.map((p) => [p.id, lastDailyTime(now, p.dailyAfterUtc)]));
  const due = await listDueIntegrations(ctx.db, providers, now, MAX_PER_ROUND, syncedBefore);
  for (const { id } of due) await queueIntegrationSync(ctx.jobs, id);
  return due.length;
}

/**
 * Syncs integration `integrationId` now, whatever its schedule; the outcome is stored and returned. Errors other
 * than the provider's are thrown. A sign-in provider's integration runs that provider's import.
 */
export async function syncIntegration(
  ctx: SyncContext,
  integrationId: number,
  now = new Date(),
  signIn: readonly SignInProvider[] = [],
): Promise<SyncOutcome | Awaited<ReturnType<SignInProvider['sync']>>> {
  const row = await findIntegration(ctx.db, integrationId);
  if (!row) return { status: 'skipped', reason: 'not installed' };
  const signedIn = signIn.find((p) => p.id === row.provider);
  if (signedIn) return signedIn.sync(ctx, row, now);
  if (row.status === 'inactive') return { status: 'skipped', reason: 'paused' };
  const found = providerOf(row);
  if (!found || !row.credentialsEncrypted) return { status: 'skipped', reason: 'nothing to sync' };
  const { plugin, provider } = found;

  let config: PluginConfig;
  let secrets: Record<string, string>;
  try {
    secrets = openSecrets(row.credentialsEncrypted, ctx.env.APP_SECRET);
    config = { ...row.config, ...secrets };
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    return recordFailure(
      ctx,
      row,
      plugin,
      new ProviderError(
        'The stored credentials can no longer be read (the server key changed): enter the API key again',
        'refused',
      ),
      now,
    );
  }

  const to = utcDay(now);
  const wanted = row.lastSyncAt ? SYNC_DAYS : FIRST_SYNC_DAYS;
  const from = addDays(to, -(Math.min(wanted, provider.maxDaysPerSync ?? wanted) - 1));
  const http = httpFor(ctx, provider);
  let days: DailyStats[] | undefined;
  try {
    if (provider.fetchDailyStats) days = await provider.fetchDailyStats(http, config, from, to);
    else await provider.testConnection(http, config);
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    return recordFailure(ctx, row, plugin, withoutSecrets(err, Object.values(secrets)), now);
  }

  const stored = await ctx.db.transaction(async (tx) => {
    // Uninstalled or paused meanwhile: its figures are not written back.
    const current = await lockIntegration(tx, row.id);
    if (!current || current.status === 'inactive' || changedSince(row, current)) return false;
    if (days)
      await replacePluginFigures(
        tx,
        row.userId,
        row.provider,
        from,
        to,
        days.filter((d) => d.date >= from && d.date <= to),
      );
    await updateIntegration(tx, row.id, {
      lastSyncAt: now,
      lastError: null,
      lastErrorAt: null,
      consecutiveFailures: 0,
      nextSyncAt: null,
      status: 'active',
    });
    await resolveSyncAlert(tx, row, plugin, `synced again on ${now.toISOString()}.`);
    return true;
  });
  if (!stored) return { status: 'skipped', reason: 'uninstalled, paused or changed during the sync' };
  if (days) {
    // New figures: the delivery, bounce and complaint conditions are judged again.
    await queueAlertEvaluation(ctx.jobs, row.userId);
    return { status: 'synced', days: days.length };
  }
  return { status: 'checked' };
}

async function recordFailure(
  ctx: SyncContext,
  row: IntegrationRow,
  plugin: Plugin,
  err: ProviderError,
  now: Date,
): Promise<SyncOutcome> {
  if (err.kind === 'rate_limited') {
    if (changedSince(row, await findIntegration(ctx.db, row.id)))
      return { status: 'skipped', reason: 'uninstalled, paused or changed during the sync' };
    // The provider asked to wait: not a failure of the integration, and no sync before then.
    const wait = err.retryAfterSeconds ?? 60;
    await updateIntegration(ctx.db, row.id, rateLimitedFields(err.message, wait, now));
    return { status: 'rate_limited', error: err.message, retryAfterSeconds: wait };
  }
  const failures = row.consecutiveFailures + 1;
  await ctx.db.transaction(async (tx) => {
    const current = await lockIntegration(tx, row.id);
    // Paused, uninstalled or given new credentials meanwhile: this outcome is about settings no longer in use.
    if (!current || current.status === 'inactive' || changedSince(row, current)) return;
    await updateIntegration(tx, row.id, failedSyncFields(failures, err.message, now, current.status));
    if (failures < FAILURES_BEFORE_ALERT) return;
    await keepConditionAlert(tx, {
      userId: row.userId,
      conditionKey: syncAlertKey(row.id),
      type: 'deliverability',
      severity: 'error',
      title: `${plugin.name} sync keeps failing`,
      message:
        `The last ${failures} syncs of your ${plugin.name} integration failed; the last one said: ${err.message}. ` +
        `InboxPulse has no new figures from ${plugin.name} until it works again: check the key and its permissions in Integrations, then Test Connection.`,
      measure: `Failed ${plugin.name} syncs in a row`,
      metadata: {
        value: failures,
        provider: plugin.id,
        integrationId: row.id,
        lastError: err.message,
        lastErrorAt: now.toISOString(),
      },
    });
  });
  return { status: 'failed', error: err.message, failures };
}

/** Whether the integration's credentials or settings changed (or it went) since `before` was read: a change tests and queues its own sync. */
function changedSince(before: IntegrationRow, current: IntegrationRow | undefined): boolean {
  return (
    !current ||
    current.credentialsEncrypted !== before.credentialsEncrypted ||
    JSON.stringify(current.config) !== JSON.stringify(before.config)
  );
}

/** Resolves the integration's failing-sync alert, if one is open; `why` follows the plugin's name ("synced again on …"). */
export async function resolveSyncAlert(
  ex: Executor,
  row: Pick<IntegrationRow, 'id' | 'userId'>,
  plugin: Plugin | undefined,
  why: string,
): Promise<void> {
  await resolveConditionAlert(ex, row.userId, syncAlertKey(row.id), `${plugin?.name ?? 'The integration'} ${why}`);
}
