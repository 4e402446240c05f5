import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../platform/dns/resolver';
import type { ConnectionSettings } from '../platform/db/client';
import { loadEnv } from '../platform/env';
import { startRuntime } from '../runtime';
import { loopbackResolver, startDnsServer, type TestDnsServer } from '../test/dns-server';
import { openTestDatabase } from '../test/test-database';
import { waitUntil } from '../test/wait-until';
import { checkReportAuthorization, warnIfReportsUnauthorized } from './report-authorization';

/*
 * The operator's half of RFC 7489 7.1: without "v=DMARC1" at *._report._dmarc.<INBOUND_DOMAIN>,
 * receivers mail no report to dmarc@<INBOUND_DOMAIN>. Start-up says so in the log, without
 * waiting for DNS and without logging anything secret.
 */

const INBOUND = 'in.reports-auth.test';

function logSink() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

let dns: TestDnsServer;
/** A DNS server that never answers: what a closed network looks like to the resolver. */
let silent: Socket;
beforeAll(async () => {
  dns = await startDnsServer();
  silent = createSocket('udp4');
  await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await dns.close();
  silent.close();
});

const resolver = () => loopbackResolver(dns);
const silentAddress = () => `127.0.0.1:${silent.address().port}`;

describe('the DMARC report authorization check', () => {
  it('finds the wildcard by a name under it (what receivers ask) or by its own name', async () => {
    expect(await checkReportAuthorization(resolver(), 'none.reports-auth.test')).toEqual({
      state: 'missing',
      name: '*._report._dmarc.none.reports-auth.test',
    });
    dns.zone['authorization-check.example._report._dmarc.synth.reports-auth.test'] = { TXT: ['v=DMARC1'] };
    expect(await checkReportAuthorization(resolver(), 'synth.reports-auth.test')).toEqual({ state: 'authorized' });
    dns.zone['*._report._dmarc.literal.reports-auth.test'] = { TXT: ['v=DMARC1;'] };
    expect(await checkReportAuthorization(resolver(), 'literal.reports-auth.test')).toEqual({ state: 'authorized' });
    // Something else published there is not an authorization.
    dns.zone['*._report._dmarc.other.reports-auth.test'] = { TXT: ['v=spf1 -all'] };
    expect((await checkReportAuthorization(resolver(), 'other.reports-auth.test')).state).toBe('missing');
  });

  it('warns with the record to publish when DNS answers without it, and says nothing when it is there', async () => {
    const { lines, logger } = logSink();
    const env = loadEnv({
      APP_SECRET: 'a-secret-that-must-not-be-logged-0123456789',
      INBOUND_DOMAIN: 'warn.reports-auth.test',
      DATA_DIR: tmpdir(),
    });
    expect(await warnIfReportsUnauthorized(resolver(), env, logger)).toMatchObject({ state: 'missing' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      reportAddress: 'dmarc@warn.reports-auth.test',
      publish: '*._report._dmarc.warn.reports-auth.test TXT "v=DMARC1"',
    });
    expect(lines[0].msg).toContain(
      "receivers will not mail your users' aggregate reports to dmarc@warn.reports-auth.test",
    );
    expect(lines[0].msg).toContain(
      'Publish once in the DNS of warn.reports-auth.test: *._report._dmarc.warn.reports-auth.test TXT "v=DMARC1"',
    );
    expect(JSON.stringify(lines)).not.toContain(env.APP_SECRET);

    dns.zone['*._report._dmarc.warn.reports-auth.test'] = { TXT: ['v=DMARC1'] };
    lines.length = 0;
    expect(await warnIfReportsUnauthorized(resolver(), env, logger)).toEqual({ state: 'authorized' });
    expect(lines).toEqual([]);
  });

  it('does not warn when DNS does not answer (SERVFAIL, or no server at all): nothing is known', async () => {
    const { lines, logger } = logSink();
    dns.servfail.add('authorization-check.example._report._dmarc.broken.reports-auth.test');
    dns.servfail.add('*._report._dmarc.broken.reports-auth.test');
    expect(
      await warnIfReportsUnauthorized(resolver(), { INBOUND_DOMAIN: 'broken.reports-auth.test' }, logger),
    ).toMatchObject({ state: 'unknown' });
    const closed = createResolver({ servers: [silentAddress()], timeoutMs: 200, tries: 1, maxCacheSeconds: 0 });
    expect(await warnIfReportsUnauthorized(closed, { INBOUND_DOMAIN: INBOUND }, logger)).toMatchObject({
      state: 'unknown',
    });
    expect(lines.map((l) => l.level)).toEqual([30, 30]);
    expect(lines[0].msg).toContain('Could not check the DMARC report authorization');
  });
});

describe('at start-up (smtp role)', () => {
  function databaseUrl(connection: ConnectionSettings): string {
    if (connection.connectionString) return connection.connectionString;
    const auth = `${encodeURIComponent(connection.user ?? '')}:${encodeURIComponent(connection.password ?? '')}`;
    return `postgresql://${auth}@localhost:${connection.port ?? 5432}/${connection.database}?host=${encodeURIComponent(connection.host ?? '')}`;
  }

  async function start(dnsServers: string) {
    const database = await openTestDatabase();
    await database.close();
    const { lines, logger } = logSink();
    const env = loadEnv({
      NODE_ENV: 'test',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'inboxpulse-report-auth-')),
      DATABASE_URL: databaseUrl(database.connection),
      APP_SECRET: 'start-up-secret-start-up-secret-0123456789',
      ROLES: 'smtp',
      SMTP_PORT: '0',
      HOST: '127.0.0.1',
      INBOUND_DOMAIN: INBOUND,
      DNS_SERVERS: dnsServers,
    });
    const runtime = await startRuntime(env, { logger });
    return { runtime, lines, env };
  }

  const authorizationLines = (lines: Record<string, unknown>[]) =>
    lines.filter((l) => String(l.msg).includes('DMARC report authorization'));

  it('logs the missing authorization once DNS answers, with nothing secret in the line', async () => {
    const { runtime, lines, env } = await start(dns.address);
    try {
      const [line] = await waitUntil(async () => authorizationLines(lines), 'the authorization warning', {
        until: (found) => found.length > 0,
      });
      expect(line).toMatchObject({ level: 40, publish: `*._report._dmarc.${INBOUND} TXT "v=DMARC1"` });
      const logged = JSON.stringify(lines);
      expect(logged).not.toContain(env.APP_SECRET);
      expect(logged).not.toContain(env.DATABASE_URL!);
    } finally {
      await runtime.stop();
    }
  });

  it('does not wait for DNS: a server that never answers leaves start-up as fast, and nothing is warned', async () => {
    const { runtime, lines } = await start(silentAddress());
    try {
      // The resolver waits 3 s per try: start-up returned before any answer could have come.
      expect(runtime.smtp?.port).toBeGreaterThan(0);
      expect(authorizationLines(lines)).toEqual([]);
    } finally {
      await runtime.stop();
    }
    expect(lines.filter((l) => (l.level as number) >= 40 && String(l.msg).includes('authorization'))).toEqual([]);
  });
});
