import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Blocklist,
  BlocklistIdParams,
  IgnoreBlocklistRequest,
  IpMonitoringStatus,
  ListingHistoryQuery,
  ListingPeriod,
  TriggerMonitoringResponse,
} from '@contracts/reputation';
import { queueAlertEvaluation } from '../alerts/alerts.service';
import { queueWebhookDeliveries } from '../webhooks/webhooks.service';
import type { AppContext } from '../platform/context';
import type { Executor } from '../platform/db/client';
import { DNSBL_CATALOGUE, blocklistsFor, findBlocklist, type DnsblCatalogueEntry } from '../engine/blocklists/dnsbl';
import { AppError } from '../platform/errors';
import { currentUser, requireUser } from '../platform/http/session';
import { findRun, findTargetName, listIgnoredListIds, listListings, setListIgnored } from './blocklist-results.repo';
import { requestReputationCheck } from './reputation-check';
import { MONITORING_INTERVAL_HOURS } from './schedule-reputation-checks.job';
import { deriveReputation } from './reputation-run.service';

const IP_LISTS = DNSBL_CATALOGUE.filter((l) => l.kind === 'ip').length;
const DOMAIN_LISTS = DNSBL_CATALOGUE.filter((l) => l.kind === 'domain').length;

/** The next scheduled tick ('0 *\/2 * * *', UTC): the next even hour. */
export function nextScheduledRun(now: Date): Date {
  const next = new Date(now);
  next.setUTCMinutes(0, 0, 0);
  next.setUTCHours(next.getUTCHours() + MONITORING_INTERVAL_HOURS - (next.getUTCHours() % MONITORING_INTERVAL_HOURS));
  return next;
}

async function monitoringStatus(db: Executor, userId: number): Promise<IpMonitoringStatus> {
  const run = await findRun(db, userId);
  return {
    totalProviders: IP_LISTS,
    totalDomainProviders: DOMAIN_LISTS,
    ipv4Providers: blocklistsFor('ipv4').length,
    ipv6Providers: blocklistsFor('ipv6').length,
    isRunning: run?.isRunning ?? false,
    lastRun: run?.finishedAt?.toISOString() ?? null,
    nextRun: nextScheduledRun(new Date()).toISOString(),
    lastError: run?.lastError ?? null,
  };
}

const toBlocklist = (list: DnsblCatalogueEntry, ignored: Set<string>): Blocklist => ({
  id: list.id,
  name: list.name,
  zone: list.zone,
  kind: list.kind,
  tier: list.tier,
  ipv6: list.ipv6,
  removalUrl: list.removalUrl,
  ignored: ignored.has(list.id),
});

export async function monitoringRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireUser(ctx.db);

  r.get(
    '/api/ip-monitoring/status',
    { onRequest: signedIn, schema: { response: { 200: IpMonitoringStatus } } },
    async (request) => monitoringStatus(ctx.db, currentUser(request).id),
  );

  r.post(
    '/api/ip-monitoring/trigger',
    { onRequest: signedIn, schema: { response: { 200: TriggerMonitoringResponse } } },
    async (request) => {
      const userId = currentUser(request).id;
      const started = await requestReputationCheck(ctx.db, ctx.jobs, userId);
      return { started, status: await monitoringStatus(ctx.db, userId) };
    },
  );

  r.get(
    '/api/reputation/listings',
    { onRequest: signedIn, schema: { querystring: ListingHistoryQuery, response: { 200: z.array(ListingPeriod) } } },
    async (request) => {
      const userId = currentUser(request).id;
      const { ipAddressId, domainId } = request.query;
      const target = ipAddressId !== undefined ? { ipAddressId } : { domainId: domainId as number };
      const name = await findTargetName(ctx.db, userId, target);
      if (name === undefined)
        throw new AppError('not_found', 'ipAddressId' in target ? 'IP address not found' : 'Domain not found');
      return (await listListings(ctx.db, userId, target)).map((row) => ({
        listId: row.listId,
        provider: findBlocklist(row.listId)?.name ?? row.listId,
        target: name,
        listedAt: row.listedAt.toISOString(),
        delistedAt: row.delistedAt?.toISOString() ?? null,
        reason: row.reason,
      }));
    },
  );

  r.get(
    '/api/blocklists',
    { onRequest: signedIn, schema: { response: { 200: z.array(Blocklist) } } },
    async (request) => {
      const ignored = await listIgnoredListIds(ctx.db, currentUser(request).id);
      return DNSBL_CATALOGUE.map((list) => toBlocklist(list, ignored));
    },
  );

  r.put(
    '/api/blocklists/:id/ignore',
    {
      onRequest: signedIn,
      schema: { params: BlocklistIdParams, body: IgnoreBlocklistRequest, response: { 200: Blocklist } },
    },
    async (request) => {
      const userId = currentUser(request).id;
      const list = findBlocklist(request.params.id);
      if (!list) throw new AppError('not_found', 'Blocklist not found');
      // The stored answers are scored again at once: an ignored list stops counting without a new lookup.
      const { ignored, deliveries } = await ctx.db.transaction(async (tx) => {
        await setListIgnored(tx, userId, list.id, request.body.ignored);
        const recorded = await deriveReputation(tx, userId);
        return { ignored: await listIgnoredListIds(tx, userId), deliveries: recorded };
      });
      await queueWebhookDeliveries(ctx.jobs, deliveries);
      // The scores changed: the sender score conditions are computed from them.
      await queueAlertEvaluation(ctx.jobs, userId);
      return toBlocklist(list, ignored);
    },
  );
}
