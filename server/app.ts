import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AppContext } from './platform/context';
import type { Database } from './platform/db/client';
import type { Notifications } from './platform/db/notifications';
import type { DnsResolver } from './platform/dns/resolver';
import type { Env } from './platform/env';
import type { MessageAnalyser } from './platform/message-analyser';
import { accountRoutes } from './accounts/account.routes';
import { alertRoutes } from './alerts/alerts.routes';
import { alertRuleRoutes } from './alerts/alert-rules.routes';
import { alertSettingsRoutes } from './alerts/alert-settings.routes';
import { apiKeyRoutes } from './api-keys/api-keys.routes';
import { billingRoutes } from './billing/billing.routes';
import { chatbotRoutes } from './chatbot/chatbot.routes';
import { dashboardRoutes } from './dashboard/dashboard.routes';
import { deliveryEventRoutes } from './delivery-events/delivery-events.routes';
import { eventApiRoutes } from './delivery-events/event-api.routes';
import { mtaWebhookRoutes } from './delivery-events/mta-webhooks.routes';
import { espWebhookRoutes } from './delivery-events/esp-webhooks/esp-webhooks.routes';
import { feedbackLoopRoutes } from './feedback-loops/feedback-loops.routes';
import { postfixApiRoutes } from './delivery-events/postfix-api.routes';
import { dmarcRoutes } from './dmarc/dmarc.routes';
import { domainRoutes } from './domains/domains.routes';
import { complianceRoutes } from './compliance/compliance.routes';
import { emailMetricRoutes } from './integrations/email-metrics.routes';
import { inboxTestRoutes } from './inbox-tests/inbox-tests.routes';
import { seedNetworkRoutes } from './inbox-tests/seed-network.routes';
import { integrationRoutes } from './integrations/integrations.routes';
import { authRoutes } from './accounts/auth.routes';
import { monitoringRoutes } from './reputation/monitoring.routes';
import { planRoutes } from './plans/plans.routes';
import { postmasterRoutes } from './postmaster/postmaster.routes';
import { domainReputationRoutes } from './reputation/domain-reputation.routes';
import { ipAddressRoutes } from './reputation/ip-addresses.routes';
import { timelineRoutes } from './timeline/timeline.routes';
import { webhookRoutes } from './webhooks/webhooks.routes';
import { refuseKeysOnSessionOnlyRoutes } from './platform/http/api-key-auth';
import { answerFrameworkError, BODY_LIMIT_BYTES, registerErrorHandling } from './platform/http/error-handler';
import { lazyRequestLogger, RequestLog } from './platform/http/request-log';
import { proxyTrust, registerRequestSecurity } from './platform/http/security';
import { registerOpenApi } from './platform/http/openapi';
import { serializeAnswers } from './platform/http/serializer';
import { cacheSessions } from './platform/http/session';
import { registerSpa } from './platform/http/spa';
import type { JobSender } from './platform/job-sender';
import type { Mailer } from './platform/mail/mailer';
import type { ThreadTasks } from './platform/workers/thread-tasks';

export interface AppDeps {
  env: Env;
  database: Database;
  notifications: Notifications;
  mailer: Mailer;
  dns: DnsResolver;
  analyser: MessageAnalyser;
  threads: ThreadTasks;
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
    // Only the hops TRUST_PROXY names: an X-Forwarded-For entry a client wrote itself is never its address.
    trustProxy: proxyTrust(deps.env.TRUST_PROXY),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    logController: new RequestLog(),
    childLoggerFactory: lazyRequestLogger,
    return503OnClosing: true,
    frameworkErrors: answerFrameworkError,
  }) as unknown as FastifyInstance;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializeAnswers);

  const ctx: AppContext = {
    env: deps.env,
    db: deps.database.db,
    mailer: deps.mailer,
    dns: deps.dns,
    analyser: deps.analyser,
    threads: deps.threads,
    jobs: deps.jobs,
    log: deps.logger,
  };

  registerErrorHandling(app);
  registerRequestSecurity(app, deps.env);
  // Signed-in requests are served from memory; the database tells every process what to drop.
  await cacheSessions(deps.database.db, deps.notifications);
  // Before the routes, which it hears as they are added.
  refuseKeysOnSessionOnlyRoutes(app);
  // Before the routes: it hears each route as it is added (GET /api/openapi.json).
  await registerOpenApi(app, deps.env);

  await app.register(authRoutes, ctx);
  await app.register(accountRoutes, ctx);
  await app.register(alertRoutes, ctx);
  await app.register(alertRuleRoutes, ctx);
  await app.register(alertSettingsRoutes, ctx);
  await app.register(apiKeyRoutes, ctx);
  await app.register(billingRoutes, ctx);
  await app.register(planRoutes, ctx);
  await app.register(chatbotRoutes, ctx);
  await app.register(dashboardRoutes, ctx);
  await app.register(domainRoutes, ctx);
  await app.register(complianceRoutes, ctx);
  await app.register(inboxTestRoutes, ctx);
  await app.register(seedNetworkRoutes, ctx);
  await app.register(integrationRoutes, ctx);
  await app.register(emailMetricRoutes, ctx);
  await app.register(postmasterRoutes, ctx);
  await app.register(mtaWebhookRoutes, ctx);
  await app.register(espWebhookRoutes, ctx);
  await app.register(feedbackLoopRoutes, ctx);
  await app.register(eventApiRoutes, ctx);
  await app.register(deliveryEventRoutes, ctx);
  await app.register(postfixApiRoutes, ctx);
  await app.register(dmarcRoutes, ctx);
  await app.register(monitoringRoutes, ctx);
  await app.register(ipAddressRoutes, ctx);
  await app.register(domainReputationRoutes, ctx);
  await app.register(timelineRoutes, ctx);
  await app.register(webhookRoutes, ctx);

  await registerSpa(app, deps.webRoot);
  return app;
}
