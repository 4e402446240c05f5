import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { buildApp } from '../app';
import { startAppServices } from '../app-services';
import { openDatabase, type Database } from '../platform/db/client';
import { openNotifications, type Notifications } from '../platform/db/notifications';
import { loadEnv, type Env } from '../platform/env';
import type { JobQueue } from '../platform/queue/queue';
import { parseDnsServers, type DnsResolver } from '../platform/dns/resolver';
import { INBOUND_MAILBOXES } from '../inbound-mailboxes';
import { startSmtpListener, type SessionLimits, type SmtpListener } from '../platform/smtp/smtp-listener';
import { startDnsServer, type TestDnsServer } from './dns-server';
import { startSmtpSink, type SmtpSink } from './smtp-sink';
import { openTestDatabase, type TestDatabaseServer } from './test-database';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  notifications: Notifications;
  env: Env;
  jobs: JobQueue;
  dns: DnsResolver;
  close(): Promise<void>;
}

export interface TestAppOptions {
  smtpUrl?: string;
  /** Run the job worker (off unless a test needs jobs to run). */
  work?: boolean;
  /**
   * Fire cron schedules too (with `work`). Off by default: a test runs a scheduled job itself, so the
   * time of day (an hourly domain check at :00 re-verifying a domain a test marked verified) never
   * changes what it sees. Only a test of scheduling itself turns them on.
   */
  schedules?: boolean;
  webRoot?: string;
  /** Where the app logs (silent unless TEST_LOG_LEVEL is set): a test that reads the log passes its own. */
  logger?: Logger;
  /** Extra environment variables, e.g. an LLM endpoint for the chat assistant. */
  env?: Record<string, string>;
  /** Run on that app's database, as a second process would: its own pool and LISTEN connection. Close this app first. */
  sameDatabaseAs?: TestApp;
  /** The server whose template to copy: the run's (from the global setup) unless a script starts its own. */
  databaseServer?: TestDatabaseServer;
}

/** The real app on a fresh migrated database, as DESIGN.md asks of every integration test. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.sameDatabaseAs
    ? await openSecondPool(options.sameDatabaseAs.database)
    : await openTestDatabase(options.databaseServer);
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'inboxpulse-test-')),
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    APP_URL: 'http://localhost:3000',
    LOG_LEVEL: 'silent',
    SMTP_URL: options.smtpUrl,
    ...options.env,
  });
  const logger = options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const notifications = await openNotifications(database.connection, logger);
  const { services, stop: stopServices } = await startAppServices(
    { env, database, notifications, logger },
    {
      // No cache: tests change their DNS zone between checks.
      dns: { servers: parseDnsServers(env.DNS_SERVERS), timeoutMs: 1000, tries: 1, maxCacheSeconds: 0 },
      work: options.work ?? false,
      schedules: options.schedules ?? false,
      pollSeconds: 1,
    },
  );
  const app = await buildApp({ env, database, notifications, logger, webRoot: options.webRoot, ...services });
  await app.ready();
  return {
    app,
    database,
    notifications,
    env,
    jobs: services.jobs,
    dns: services.dns,
    async close() {
      await app.close();
      await stopServices();
      await notifications.close();
      await database.close();
    },
  };
}

/** The real app resolving through a loopback DNS server whose zone the test writes, as checks of a domain need. */
export interface TestAppWithDns {
  t: TestApp;
  dns: TestDnsServer;
  /** Closes the app, then the DNS server. */
  close(): Promise<void>;
}

export async function createTestAppWithDns(options: TestAppOptions = {}): Promise<TestAppWithDns> {
  const dns = await startDnsServer();
  try {
    const t = await createTestApp({ ...options, env: { ...options.env, DNS_SERVERS: dns.address } });
    return {
      t,
      dns,
      async close() {
        await t.close();
        await dns.close();
      },
    };
  } catch (error) {
    await dns.close();
    throw error;
  }
}

/** Another pool on a test database; closing it leaves the database to its owner. */
async function openSecondPool(database: Database): Promise<Database> {
  const second = await openDatabase(database.connection, 5);
  return { ...second, migrate: async () => {} };
}

/**
 * The inbound SMTP listener on a free loopback port, on this app's database and queue, accepting mail
 * for every capability's mailboxes as production does. `env` overrides settings (TLS, limits).
 */
export function startTestSmtpListener(
  t: TestApp,
  env: Partial<Env> = {},
  limits?: Partial<SessionLimits>,
): Promise<SmtpListener> {
  return startSmtpListener({
    // Every client here is a stranger on loopback: the production pause before the greeting would only slow the suites
    // (the tests of the pause set their own).
    limits: { greetingDelayMs: 0, ...limits },
    env: { ...t.env, SMTP_PORT: 0, HOST: '127.0.0.1', ...env },
    db: t.database.db,
    jobs: t.jobs,
    log: pino({ level: 'silent' }),
    mailboxes: INBOUND_MAILBOXES,
  });
}

/** The app with a job worker and a real loopback SMTP server for its outbound mail. */
export async function createMailingTestApp(
  env: Record<string, string> = {},
  options: Pick<TestAppOptions, 'schedules'> = {},
): Promise<TestApp & { smtp: SmtpSink }> {
  const smtp = await startSmtpSink();
  const t = await createTestApp({ smtpUrl: smtp.url, work: true, env, ...options });
  return {
    ...t,
    smtp,
    async close() {
      await t.close();
      await smtp.close();
    },
  };
}

/** A browser-like client: keeps the session cookie between calls. */
export class TestClient {
  /** The session cookie (`inboxpulse_session=...`), sent with every request. */
  cookie: string | undefined;
  /** The remember-device cookie, sent to the login route only, as its Path makes a browser do. */
  deviceCookie: string | undefined;
  constructor(
    private readonly app: FastifyInstance,
    readonly ip = '127.0.0.1',
  ) {}

  async request(method: InjectOptions['method'], url: string, body?: unknown): Promise<LightMyRequestResponse> {
    const cookies = [this.cookie, url.startsWith('/api/login') ? this.deviceCookie : undefined].filter(Boolean);
    const res = await this.app.inject({
      method,
      url,
      remoteAddress: this.ip,
      headers: cookies.length > 0 ? { cookie: cookies.join('; ') } : {},
      ...(body === undefined ? {} : { payload: body as object }),
    });
    const setCookie = res.cookies.find((c) => c.name === 'inboxpulse_session');
    if (setCookie) this.cookie = setCookie.value ? `inboxpulse_session=${setCookie.value}` : undefined;
    const device = res.cookies.find((c) => c.name === 'inboxpulse_device');
    if (device) this.deviceCookie = `inboxpulse_device=${device.value}`;
    return res;
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, body?: unknown) => this.request('POST', url, body);
  patch = (url: string, body?: unknown) => this.request('PATCH', url, body);
  delete = (url: string) => this.request('DELETE', url);
}

let counter = 0;
/** Registers a new user and returns a client signed in as them. */
export async function signUp(
  app: FastifyInstance,
  overrides: Partial<{ username: string; email: string; password: string }> = {},
) {
  counter++;
  const username = overrides.username ?? `user${counter}_${Date.now() % 100000}`;
  const body = {
    username,
    email: overrides.email ?? `${username}@example.com`,
    password: overrides.password ?? 'correct horse battery',
  };
  // Each sign-up comes from its own address so tests do not trip the registration rate limit.
  const client = new TestClient(app, `127.9.${Math.floor(counter / 250)}.${counter % 250}`);
  const res = await client.post('/api/register', body);
  if (res.statusCode !== 200) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  return { client, user: res.json().user as { id: number; username: string; email: string }, password: body.password };
}
