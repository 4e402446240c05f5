import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  InstallIntegrationBody,
  Integration,
  IntegrationIdParams,
  IntegrationList,
  ProviderSyncAnswer,
  ProviderSyncBody,
  SyncQueued,
  TestConnectionBody,
  TestConnectionResult,
  UninstallQuery,
  UpdateIntegrationBody,
} from '@contracts/integrations';
import type { AppContext } from '../platform/context';
import { dayTotalsPush, requireEmailAllowance } from '../plans/plan-gate.service';
import { currentUser, requireUser } from '../platform/http/session';
import {
  changeIntegration,
  installIntegration,
  listIntegrations,
  requestSync,
  storePushedStats,
  testPluginConnection,
  uninstallIntegration,
} from './integrations.service';

export async function integrationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireUser(ctx.db);

  // Each integration with what it synced (30-day volume and delivery, days of data) and its sync state; never its
  // secrets.
  r.get('/api/integrations', { onRequest: signedIn, schema: { response: { 200: IntegrationList } } }, async (request) =>
    listIntegrations(ctx, currentUser(request).id),
  );

  // A day's SMTP2GO statistics pushed by the user's own script (session or API key): written over that day's figures.
  r.post(
    '/api/smtp2go/sync',
    { onRequest: signedIn, schema: { body: ProviderSyncBody, response: { 200: ProviderSyncAnswer } } },
    async (request) => {
      // A pushed day counts against the plan's e-mails a month (ADR 032, 043); a plugin's own sync is never refused.
      await requireEmailAllowance(ctx.db, currentUser(request), dayTotalsPush('smtp2go'), ctx.env.APP_URL);
      return storePushedStats(ctx, currentUser(request).id, request.body);
    },
  );

  // The provider's own answer to the credentials; nothing is stored. A refusal is a 200 with success false and its
  // words.
  r.post(
    '/api/integrations/test',
    { onRequest: signedIn, schema: { body: TestConnectionBody, response: { 200: TestConnectionResult } } },
    async (request) => testPluginConnection(ctx, currentUser(request).id, request.body.pluginId, request.body.config),
  );

  // Tests, then installs (409 when the plugin is installed already) and queues the first sync.
  r.post(
    '/api/integrations',
    { onRequest: signedIn, schema: { body: InstallIntegrationBody, response: { 201: Integration } } },
    async (request, reply) =>
      reply.code(201).send(await installIntegration(ctx, currentUser(request).id, request.body)),
  );

  r.patch(
    '/api/integrations/:id',
    {
      onRequest: signedIn,
      schema: { params: IntegrationIdParams, body: UpdateIntegrationBody, response: { 200: Integration } },
    },
    async (request) => changeIntegration(ctx, currentUser(request).id, request.params.id, request.body),
  );

  r.delete(
    '/api/integrations/:id',
    {
      onRequest: signedIn,
      schema: { params: IntegrationIdParams, querystring: UninstallQuery, response: { 204: z.undefined() } },
    },
    async (request, reply) => {
      await uninstallIntegration(ctx, currentUser(request).id, request.params.id, request.query.keepMetrics === 'true');
      return reply.code(204).send();
    },
  );

  r.post(
    '/api/integrations/:id/sync',
    { onRequest: signedIn, schema: { params: IntegrationIdParams, response: { 202: SyncQueued } } },
    async (request, reply) => reply.code(202).send(await requestSync(ctx, currentUser(request).id, request.params.id)),
  );
}
