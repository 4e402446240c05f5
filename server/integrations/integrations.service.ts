import { pluginById, type Integration as Plugin, type PluginId } from '@content/integrations';
import { utcDay } from '@contracts/utc-day';
import {
  pluginConfigProblems,
  splitPluginConfig,
  type InstallIntegrationBody,
  type Integration,
  type ProviderSyncAnswer,
  type ProviderSyncBody,
  type SyncQueued,
  type TestConnectionResult,
  type UpdateIntegrationBody,
} from '@contracts/integrations';
import type { AppContext } from '../platform/context';
import { queueAlertEvaluation } from '../alerts/alerts.service';
import { deletePluginFigures, replacePluginFigures } from '../delivery-events/delivery-events.service';
import { AppError } from '../platform/errors';
import { enforceRateLimit, type RateRule } from '../platform/security/rate-limit';
import { SecretBoxError } from '../platform/security/secret-box';
import { keyPreview, openSecrets, sealSecrets } from './integration-credentials';
import { httpFor, providerOf, resolveSyncAlert, FAILURES_BEFORE_ALERT } from './integration-sync';
import { queueIntegrationSync } from './sync-integration.job';
import {
  deleteUserIntegration,
  findUserIntegration,
  findUserIntegrationByProvider,
  insertIntegration,
  listUserIntegrations,
  updateIntegration,
  type IntegrationWithFigures,
} from './integrations.repo';
import { ProviderError, withoutSecrets } from './providers/provider';

/*
 * Installing, testing, changing and removing a user's ESP plugins (docs/decisions/028). Every call
 * that reaches a provider with credentials the user typed (test, install, a credentials change,
 * sync now) counts against one per-user limit: the product must not become a way to hammer or
 * probe a provider's API with guessed keys.
 */

const PROVIDER_CALLS: RateRule = { name: 'integration-calls-user', limit: 30, windowSeconds: 10 * 60 };
const NOT_FOUND = 'Integration not found';

/** The answer to a connection test, from the provider's answer. */
async function runConnectionTest(
  ctx: AppContext,
  plugin: Plugin,
  config: Record<string, string>,
): Promise<{ result: TestConnectionResult; error?: ProviderError }> {
  const found = providerOf({ provider: plugin.id });
  if (!found || plugin.status !== 'available') throw notInstallable(plugin);
  try {
    await found.provider.testConnection(httpFor(ctx, found.provider), config);
    return { result: { success: true, error: null } };
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    const secrets = plugin.fields.filter((f) => f.secret).map((f) => config[f.key] ?? '');
    const safe = withoutSecrets(err, secrets);
    return { result: { success: false, error: safe.message }, error: safe };
  }
}

/** A plugin without a key-based client (Google Postmaster Tools): connected through its own sign-in flow. */
function notInstallable(plugin: Plugin): AppError {
  return new AppError(
    'validation_error',
    `${plugin.name} is connected through its own sign-in, not with a key: use its Connect button`,
  );
}

/** The key of an integration's open alert (a sync, or Postmaster's import, that keeps failing): uninstalling resolves it. */
export { syncAlertKey } from './integration-sync';
/** The sync loop, for the providers that sign in (Google Postmaster Tools) and the runners composing them. */
export { FAILURES_BEFORE_ALERT, failedSyncFields, rateLimitedFields } from './integration-sync';
export { backoffMs, queueDueSyncs, syncIntegration, type SignInProvider, type SyncContext } from './integration-sync';
export { queueIntegrationSync } from './sync-integration.job';
/** The row of a provider that signs in with its own flow (Google Postmaster Tools), kept by that provider's capability. */
export {
  findUserIntegrationByProvider,
  lockUserIntegrationByProvider,
  saveSignInConnection,
  updateIntegration,
  type IntegrationRow,
} from './integrations.repo';

/** POST /api/integrations/test: the provider's own answer to the credentials, nothing stored. */
export async function testPluginConnection(
  ctx: AppContext,
  userId: number,
  pluginId: PluginId,
  config: Record<string, string>,
): Promise<TestConnectionResult> {
  const plugin = pluginById(pluginId)!;
  if (plugin.status !== 'available') throw notInstallable(plugin);
  await enforceRateLimit(ctx.db, PROVIDER_CALLS, String(userId));
  const { secrets, settings } = splitPluginConfig(plugin, config);
  return (await runConnectionTest(ctx, plugin, { ...settings, ...secrets })).result;
}

/** The error an install or a credentials change answers when the provider refused the test. */
function refusedChange(plugin: Plugin, err: ProviderError): AppError {
  if (err.kind === 'rate_limited')
    return new AppError('rate_limited', `${plugin.name}: ${err.message}`, {
      'retry-after': String(err.retryAfterSeconds ?? 60),
    });
  if (err.kind === 'unavailable')
    return new AppError('unavailable', `The connection test could not reach ${plugin.name}: ${err.message}`);
  return new AppError('validation_error', `The connection test failed: ${err.message}`);
}

/** The list's view of an integration: config without secrets, the key's last characters. */
export function toIntegration(row: IntegrationWithFigures, appSecret: string): Integration {
  const plugin = pluginById(row.provider);
  let secrets: Record<string, string> = {};
  try {
    secrets = openSecrets(row.credentialsEncrypted, appSecret);
  } catch (err) {
    // Sealed under another APP_SECRET: listed without a preview; its next sync says what to do.
    if (!(err instanceof SecretBoxError) && !(err instanceof SyntaxError)) throw err;
  }
  return {
    id: row.id,
    provider: row.provider,
    name: plugin?.name ?? row.provider,
    type: row.type,
    status: row.status,
    lastSync: row.lastSyncAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    emailsSent: row.emailsSent,
    deliveryRate: row.deliveryRate,
    dataPoints: row.dataPoints,
    config: row.config ?? {},
    keyPreview: keyPreview(plugin, secrets),
    dailyStats: Boolean(providerOf(row)?.provider.fetchDailyStats),
    lastError: row.lastError,
    lastErrorAt: row.lastErrorAt?.toISOString() ?? null,
    consecutiveFailures: row.consecutiveFailures,
    nextSyncAt: row.nextSyncAt?.toISOString() ?? null,
  };
}

export async function listIntegrations(ctx: AppContext, userId: number): Promise<Integration[]> {
  return (await listUserIntegrations(ctx.db, userId)).map((row) => toIntegration(row, ctx.env.APP_SECRET));
}

async function oneIntegration(ctx: AppContext, userId: number, id: number): Promise<Integration> {
  const [row] = await listUserIntegrations(ctx.db, userId, id);
  if (!row) throw new AppError('not_found', NOT_FOUND);
  return toIntegration(row, ctx.env.APP_SECRET);
}

/** POST /api/integrations: tests the credentials, then stores them sealed and queues the first sync. */
export async function installIntegration(
  ctx: AppContext,
  userId: number,
  body: InstallIntegrationBody,
): Promise<Integration> {
  const plugin = pluginById(body.pluginId)!;
  if (plugin.status !== 'available') throw notInstallable(plugin);
  const alreadyInstalled = () =>
    new AppError('conflict', `${plugin.name} is already installed: change its settings or uninstall it first`);
  if (await findUserIntegrationByProvider(ctx.db, userId, plugin.id)) throw alreadyInstalled();
  await enforceRateLimit(ctx.db, PROVIDER_CALLS, String(userId));
  const { secrets, settings } = splitPluginConfig(plugin, body.config);
  const test = await runConnectionTest(ctx, plugin, { ...settings, ...secrets });
  if (test.error) throw refusedChange(plugin, test.error);
  const row = await insertIntegration(ctx.db, {
    userId,
    provider: plugin.id,
    type: plugin.category,
    status: 'active',
    credentialsEncrypted: sealSecrets(secrets, ctx.env.APP_SECRET),
    config: settings,
  });
  if (!row) throw alreadyInstalled();
  await queueIntegrationSync(ctx.jobs, row.id);
  return oneIntegration(ctx, userId, row.id);
}

/**
 * PATCH /api/integrations/:id. Non-secret fields named in `config` are replaced (an empty value
 * clears an optional one); a secret left out or empty keeps the stored one. A change of anything
 * the provider sees is tested first and changes nothing when refused; it clears the failures and
 * the alert and queues a sync. `enabled` pauses or resumes syncing.
 */
export async function changeIntegration(
  ctx: AppContext,
  userId: number,
  id: number,
  body: UpdateIntegrationBody,
): Promise<Integration> {
  const row = await findUserIntegration(ctx.db, userId, id);
  if (!row) throw new AppError('not_found', NOT_FOUND);
  const plugin = pluginById(row.provider);
  const set: Parameters<typeof updateIntegration>[2] = {};
  let resync = false;

  if (body.config && Object.keys(body.config).length > 0) {
    if (!plugin || plugin.status !== 'available')
      throw new AppError('validation_error', `${plugin?.name ?? row.provider} has no settings to change here`);
    const problems = pluginConfigProblems(plugin, body.config, { keepSecrets: true });
    if (problems.length > 0) throw new AppError('validation_error', problems.join('; '));
    let storedSecrets: Record<string, string> = {};
    try {
      storedSecrets = openSecrets(row.credentialsEncrypted, ctx.env.APP_SECRET);
    } catch (err) {
      // Unreadable: the caller must send the key again (the check below says so).
      if (!(err instanceof SecretBoxError) && !(err instanceof SyntaxError)) throw err;
    }
    const given = splitPluginConfig(plugin, body.config);
    const secrets = { ...storedSecrets, ...given.secrets };
    const settings: Record<string, string> = { ...(row.config ?? {}), ...given.settings };
    for (const field of plugin.fields)
      if (!field.secret && field.key in body.config && !body.config[field.key]?.trim()) delete settings[field.key];
    const merged = { ...settings, ...secrets };
    const missing = pluginConfigProblems(plugin, merged);
    if (missing.length > 0) throw new AppError('validation_error', missing.join('; '));

    const changed =
      JSON.stringify(secrets) !== JSON.stringify(storedSecrets) ||
      JSON.stringify(settings) !== JSON.stringify(row.config ?? {});
    if (changed) {
      await enforceRateLimit(ctx.db, PROVIDER_CALLS, String(userId));
      const test = await runConnectionTest(ctx, plugin, merged);
      if (test.error) throw refusedChange(plugin, test.error);
      Object.assign(set, {
        credentialsEncrypted: sealSecrets(secrets, ctx.env.APP_SECRET),
        config: settings,
        lastError: null,
        lastErrorAt: null,
        consecutiveFailures: 0,
        nextSyncAt: null,
        status: row.status === 'inactive' ? 'inactive' : 'active',
      });
      resync = true;
    }
  }

  if (body.enabled === false && row.status !== 'inactive') {
    set.status = 'inactive';
    resync = false;
  } else if (body.enabled === true && row.status === 'inactive') {
    const failing = set.consecutiveFailures === undefined && row.consecutiveFailures >= FAILURES_BEFORE_ALERT;
    set.status = failing ? 'error' : 'active';
    set.nextSyncAt = null;
    resync = true;
  }
  if (Object.keys(set).length === 0) return oneIntegration(ctx, userId, id);

  await ctx.db.transaction(async (tx) => {
    await updateIntegration(tx, row.id, set);
    if (set.status === 'inactive') await resolveSyncAlert(tx, row, plugin, 'sync was paused.');
    else if (set.consecutiveFailures === 0)
      await resolveSyncAlert(tx, row, plugin, 'passed the connection test with new settings.');
  });
  if (resync && set.status !== 'inactive' && providerOf(row)) await queueIntegrationSync(ctx.jobs, row.id);
  return oneIntegration(ctx, userId, id);
}

/**
 * DELETE /api/integrations/:id: the integration, its sealed credentials and its open alert go; the
 * daily figures it synced go too unless `keepMetrics` (MTA figures under the same name are kept).
 */
export async function uninstallIntegration(
  ctx: AppContext,
  userId: number,
  id: number,
  keepMetrics: boolean,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await deleteUserIntegration(tx, userId, id);
    if (!row) throw new AppError('not_found', NOT_FOUND);
    if (!keepMetrics) await deletePluginFigures(tx, userId, row.provider);
    await resolveSyncAlert(tx, row, pluginById(row.provider), 'was uninstalled.');
  });
}

/**
 * POST /api/integrations/:id/sync: queues a sync now. A provider's Retry-After is honoured (429
 * until then); the back-off after failures is not, since the user may just have fixed the cause.
 */
export async function requestSync(ctx: AppContext, userId: number, id: number, now = new Date()): Promise<SyncQueued> {
  const row = await findUserIntegration(ctx.db, userId, id);
  if (!row) throw new AppError('not_found', NOT_FOUND);
  const found = providerOf(row);
  if (!found || !row.credentialsEncrypted) {
    const plugin = pluginById(row.provider);
    throw new AppError(
      'validation_error',
      plugin
        ? `${plugin.name} is not synced with a key here: it imports through its own connection`
        : `${row.provider} has nothing to sync: its data arrives through webhooks`,
    );
  }
  if (row.status === 'inactive')
    throw new AppError('conflict', `Syncing ${found.plugin.name} is paused: resume it first`);
  // A wait with no failure counted is a provider's 429 (failures set their own back-off and count).
  if (row.nextSyncAt && row.nextSyncAt > now && row.consecutiveFailures === 0 && row.lastError) {
    const seconds = Math.ceil((row.nextSyncAt.getTime() - now.getTime()) / 1000);
    throw new AppError(
      'rate_limited',
      `${found.plugin.name} asked InboxPulse to wait before the next request: try again after ${row.nextSyncAt.toISOString()}`,
      {
        'retry-after': String(seconds),
      },
    );
  }
  await enforceRateLimit(ctx.db, PROVIDER_CALLS, String(userId));
  await queueIntegrationSync(ctx.jobs, row.id);
  return {
    message: `A ${found.plugin.name} sync is queued; its figures appear here when it ends.`,
    integration: await oneIntegration(ctx, userId, id),
  };
}

/** A pushed day is at most this far ahead (clocks differ); an earlier day is a backfill, and welcome. */
const PUSH_FUTURE_MS = 24 * 3600 * 1000;

/**
 * POST /api/smtp2go/sync: the day's SMTP2GO statistics a user's own script pushes (spec part 2,
 * section 7), written over that day's figures exactly as the plugin's sync writes them, so the two
 * never add up. Counts are taken as given; a figure sent only as a rate is that percent of total_sent.
 */
export async function storePushedStats(
  ctx: AppContext,
  userId: number,
  body: ProviderSyncBody,
  now = new Date(),
): Promise<ProviderSyncAnswer> {
  const at = new Date(body.timestamp);
  if (at.getTime() > now.getTime() + PUSH_FUTURE_MS)
    throw new AppError('validation_error', 'timestamp is more than a day ahead: send the time the statistics are for');
  const { data } = body;
  const sent = data.total_sent;
  const figure = (given: number | undefined, percent: number | undefined) =>
    Math.min(sent, given ?? (percent === undefined ? 0 : Math.round((sent * percent) / 100)));
  const bounced = figure(data.bounces, data.bounce_rate);
  const day = {
    date: utcDay(at),
    emailsSent: sent,
    delivered: figure(data.delivered, data.delivery_rate),
    bounced,
    hardBounces: 0,
    softBounces: 0,
    deferred: 0,
    complaints: figure(data.spam_complaints, data.spam_rate),
    opens: figure(data.opens, data.open_rate),
    clicks: figure(data.clicks, data.click_rate),
  };
  await replacePluginFigures(ctx.db, userId, body.provider, day.date, day.date, [day]);
  // New figures: the delivery, bounce and complaint conditions are judged again.
  await queueAlertEvaluation(ctx.jobs, userId);
  return {
    provider: body.provider,
    date: day.date,
    emailsSent: day.emailsSent,
    delivered: day.delivered,
    bounced: day.bounced,
    complaints: day.complaints,
    opens: day.opens,
    clicks: day.clicks,
  };
}
