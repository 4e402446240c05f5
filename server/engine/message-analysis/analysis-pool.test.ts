import { generateKeyPairSync } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver, type ResolverOptions } from '../../platform/dns/resolver';
import type { MessageAnalyser } from '../../platform/message-analyser';
import { dkimSigned } from '../../test/dkim-signed';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { analyseMessage } from './analyse-message';
import { AnalysisStoppedError, startAnalysisPool } from './analysis-pool';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const env = { INBOUND_DOMAIN: 'inbox.localhost', SPAMD_HOST: undefined };
const envelope = { remoteIp: '192.0.2.10', helo: 'mta1.brand-mail.com', mailFrom: 'bounce@brand-mail.com' };

const message = (html: string) =>
  Buffer.from(
    [
      'From: Brand News <news@brand-mail.com>',
      'To: test-1-abc@inbox.localhost',
      'Subject: Spring collection [TEST-1]',
      'Date: Mon, 23 Nov 2026 10:00:00 +0000',
      'Message-ID: <m1@brand-mail.com>',
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      html,
      '',
    ].join('\r\n'),
  );

const signed = (raw: Buffer) =>
  dkimSigned(raw, {
    domain: 'brand-mail.com',
    selector: 's1',
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });

let dns: TestDnsServer;
let dnsOptions: ResolverOptions;
let blackHole: Socket;
const pools: MessageAnalyser[] = [];
const pool = (options: Partial<Parameters<typeof startAnalysisPool>[0]> = {}) => {
  const analyser = startAnalysisPool({ dns: dnsOptions, env, threads: 1, ...options });
  pools.push(analyser);
  return analyser;
};

beforeAll(async () => {
  const publicDer = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  dns = await startDnsServer({
    'brand-mail.com': { TXT: ['v=spf1 ip4:192.0.2.10 -all'] },
    's1._domainkey.brand-mail.com': { TXT: [`v=DKIM1; k=rsa; p=${publicDer}`] },
    '_dmarc.brand-mail.com': { TXT: ['v=DMARC1; p=reject'] },
    '10.2.0.192.in-addr.arpa': { PTR: ['mta1.brand-mail.com'] },
    'mta1.brand-mail.com': { A: ['192.0.2.10'] },
  });
  dnsOptions = { servers: [dns.address], timeoutMs: 1000, tries: 1, maxCacheSeconds: 0 };
  // A DNS server that never answers.
  blackHole = createSocket('udp4');
  await new Promise<void>((resolve) => blackHole.bind(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  blackHole?.close();
  await dns?.close();
});

/**
 * How busy this thread's event loop was while `work` ran: the share of the time it spent running code
 * rather than waiting for events (timers, sockets). A timer-lateness probe says less: the analysis
 * yields between chunks, so in process it slows every timer down without stalling one for long.
 */
async function eventLoopUtilizationDuring(work: () => Promise<unknown>): Promise<number> {
  const before = performance.eventLoopUtilization();
  await work();
  return performance.eventLoopUtilization(before).utilization;
}

describe('the message analysis pool', () => {
  it('gives the report the analysis gives in process', async () => {
    const raw = await signed(
      message('<p>Our spring collection is here. <a href="https://brand-mail.com/spring">See it</a></p>'),
    );
    const inProcess = await analyseMessage(raw, envelope, { dns: createResolver(dnsOptions), env });
    const inThread = await pool().analyse(raw, envelope);
    expect(inThread.authentication?.dmarc?.result).toBe('pass');
    expect({ ...inThread, analysedAt: null }).toEqual({ ...inProcess, analysedAt: null });
  });

  it('stops an analysis that overruns the time limit, and goes on serving', async () => {
    const analyser = pool({
      dns: { servers: [`127.0.0.1:${(blackHole.address() as AddressInfo).port}`], timeoutMs: 60_000, tries: 1 },
      timeLimitMs: 1_000,
    });
    const raw = message('<p>Hello</p>');
    await analyser.analyse(raw, null); // the thread is up: the limit measures the analysis alone
    const started = Date.now();
    // With an envelope the analysis asks DNS, which never answers here.
    const error = await analyser.analyse(raw, envelope).catch((e: Error) => e);
    expect(error).toBeInstanceOf(AnalysisStoppedError);
    expect((error as Error).message).toBe('The message analysis took longer than 1 s and was stopped.');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await analyser.analyse(raw, null)).content.subject).toBe('Spring collection [TEST-1]');
  });

  it('keeps the event loop free while a heavy message is analysed', async () => {
    // 8 MB of HTML on one line: hundreds of milliseconds of parsing and scanning.
    const heavy = message('<p>x <a href="https://brand-mail.com/x">y</a></p>'.repeat(200_000));
    const analyser = pool();
    await analyser.analyse(message('<p>warm-up</p>'), null);
    // The control: in process, the analysis keeps this thread busy nearly all the time.
    expect(
      await eventLoopUtilizationDuring(() => analyseMessage(heavy, null, { dns: createResolver(dnsOptions), env })),
    ).toBeGreaterThan(0.8);
    // Through the pool it only hands the message over and takes the report back (0.03 on a quiet machine).
    const pooled = await eventLoopUtilizationDuring(async () => {
      for (let i = 0; i < 2; i++) await analyser.analyse(heavy, null);
    });
    expect(pooled).toBeLessThan(0.5);
  });
});
