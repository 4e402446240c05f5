import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app';
import { startAppServices } from './app-services';
import { openDatabase, type Database } from './platform/db/client';
import { lockDataDir } from './platform/db/data-dir-lock';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './platform/db/embedded-postgres';
import { openNotifications, type Notifications } from './platform/db/notifications';
import { parseDnsServers } from './platform/dns/resolver';
import { appSecretNotice, type Env } from './platform/env';
import type { JobQueue } from './platform/queue/queue';
import { startSmtpListener, type SmtpListener } from './platform/smtp/smtp-listener';
import { createLogger } from './platform/logger';
import { seedNetworkOf } from './inbox-tests/seeds/seed-network-file';
import { syncSeedNetwork } from './inbox-tests/seeds/seed-sync';
import { INBOUND_MAILBOXES } from './inbound-mailboxes';
import { warnIfReportsUnauthorized } from './dmarc/report-authorization';

export interface Runtime {
  /** Where the web role listens, when it runs here. */
  url?: string;
  /** The inbound SMTP listener, when the smtp role runs here. */
  smtp?: SmtpListener;
  app?: FastifyInstance;
  database: Database;
  notifications: Notifications;
  jobs: JobQueue;
  logger: Logger;
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  webRoot?: string;
  logger?: Logger;
  /** Job poll and cron tick interval; tests shorten it. */
  jobPollSeconds?: number;
}

/** Opens the database, migrates it, starts the roles this process runs. main.ts, e2e tests and benchmarks all start here. */
export async function startRuntime(env: Env, options: RuntimeOptions = {}): Promise<Runtime> {
  const logger = options.logger ?? createLogger(env.LOG_LEVEL);
  // Read before anything starts: a broken seed file stops start-up like a bad variable.
  const seedNetwork = seedNetworkOf(env);
  const secretNotice = appSecretNotice(env);
  if (secretNotice) logger.info({ appSecretFile: env.APP_SECRET_FILE }, secretNotice);
  let unlock = () => {};
  let server: EmbeddedPostgres | undefined;
  if (!env.DATABASE_URL) {
    unlock = lockDataDir(env.DATA_DIR);
    server = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, log: logger }).catch((error) => {
      unlock();
      throw error;
    });
  }
  const database = await openDatabase(env.DATABASE_URL ?? server!.connection);
  await database.migrate();
  const notifications = await openNotifications(database.connection, logger);
  // Before any role: tests created and seeds polled from here on see the network of SEED_NETWORK_FILE.
  const seeds = await syncSeedNetwork(database.db, seedNetwork, env.APP_SECRET);
  if (seedNetwork) logger.info({ seeds: seedNetwork.length, ...seeds }, 'Seed network synced');

  const { services, stop: stopServices } = await startAppServices(
    { env, database, notifications, logger },
    {
      dns: { servers: parseDnsServers(env.DNS_SERVERS) },
      work: env.ROLES.includes('worker'),
      pollSeconds: options.jobPollSeconds,
    },
  );
  const { dns, jobs } = services;
  if (!services.mailer.configured)
    logger.warn('SMTP_URL is not set: e-mails are kept in the outbox table and the log instead of being sent');

  let app: FastifyInstance | undefined;
  let url: string | undefined;
  if (env.ROLES.includes('web')) {
    app = await buildApp({ env, database, notifications, logger, webRoot: options.webRoot, ...services });
    const address = await app.listen({ port: env.PORT, host: env.HOST });
    url = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  }
  const smtp = env.ROLES.includes('smtp')
    ? await startSmtpListener({ env, db: database.db, jobs, log: logger, mailboxes: INBOUND_MAILBOXES })
    : undefined;
  logger.info(
    { roles: env.ROLES, database: server ? 'embedded' : 'DATABASE_URL', url, smtpPort: smtp?.port },
    'InboxPulse started',
  );
  // Not awaited: a missing DMARC report authorization is logged once DNS answers; start-up never waits on it.
  if (smtp) void warnIfReportsUnauthorized(dns, env, logger);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await app?.close(); // stops accepting, drains in-flight requests
      await smtp?.close(); // stops accepting; sessions in progress finish or time out
      await stopServices(); // lets running jobs finish
      await notifications.close();
      await database.close();
      await server?.stop();
      unlock();
    })());

  return { url, smtp, app, database, notifications, jobs, logger, stop };
}
