import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AppContext } from './app-context';
import type { Database } from './db/client';
import type { Notifications } from './db/notifications';
import type { DnsResolver } from './dns/resolver';
import type { Env } from './env';
import type { MessageAnalyser } from './inbox-tests/analysis-pool';
import { accountRoutes } from './features/account/account.routes';
import { alertRoutes } from './features/alerts/alerts.routes';
import { chatbotRoutes } from './features/chatbot/chatbot.routes';
import { dashboardRoutes } from './features/dashboard/dashboard.routes';
import { dmarcRoutes } from './features/dmarc/dmarc.routes';
import { domainRoutes } from './features/domains/domains.routes';
import { emailMetricRoutes } from './features/email-metrics/email-metrics.routes';
import { inboxTestRoutes } from './features/inbox-tests/inbox-tests.routes';
import { seedNetworkRoutes } from './features/inbox-tests/seed-network.routes';
import { integrationRoutes } from './features/integrations/integrations.routes';
import { authRoutes } from './features/auth/auth.routes';
import { BODY_LIMIT_BYTES, registerErrorHandling } from './http/error-handler';
import { RequestLog } from './http/request-log';
import { registerRequestSecurity } from './http/security';
import { cacheSessions } from './http/session';
import { registerSpa } from './http/spa';
import type { JobSender } from './jobs/job';
import type { Mailer } from './mail/mailer';

export interface AppDeps {
  env: Env;
  database: Database;
  notifications: Notifications;
  mailer: Mailer;
  dns: DnsResolver;
  analyser: MessageAnalyser;
  jobs: JobSender;
  logger: Logger;
  /** The built front end (dist/web); left out in API-only tests. */
  webRoot?: string;
}

/** The HTTP app. Every endpoint is registered in the list below; open a feature's routes file to read it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: deps.env.TRUST_PROXY,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    logController: new RequestLog(),
    return503OnClosing: true,
  }) as unknown as FastifyInstance;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const ctx: AppContext = { env: deps.env, db: deps.database.db, mailer: deps.mailer, dns: deps.dns, analyser: deps.analyser, jobs: deps.jobs, log: deps.logger };

  registerErrorHandling(app);
  registerRequestSecurity(app, deps.env.APP_URL);
  // Signed-in requests are served from memory; the database tells every process what to drop.
  await cacheSessions(deps.database.db, deps.notifications);

  await app.register(authRoutes, ctx);
  await app.register(accountRoutes, ctx);
  await app.register(alertRoutes, ctx);
  await app.register(chatbotRoutes, ctx);
  await app.register(dashboardRoutes, ctx);
  await app.register(domainRoutes, ctx);
  await app.register(inboxTestRoutes, ctx);
  await app.register(seedNetworkRoutes, ctx);
  await app.register(integrationRoutes, ctx);
  await app.register(emailMetricRoutes, ctx);
  await app.register(dmarcRoutes, ctx);

  await registerSpa(app, deps.webRoot);
  return app;
}
