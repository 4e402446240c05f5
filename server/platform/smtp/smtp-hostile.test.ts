import { desc, eq, sql } from 'drizzle-orm';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxTestReport } from '@contracts/inbox-tests';
import { inboundMessages, inboxTestReports, inboxTests } from '../db/schema/index';
import { createInboxTest } from '../../inbox-tests/inbox-tests.repo';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import { hasOpenssl, makeSelfSignedCert } from '../../test/self-signed-cert';
import { createTestApp, startTestSmtpListener, signUp, type TestApp } from '../../test/test-app';
import { waitUntil } from '../../test/wait-until';
import { processInboundMessageJob } from './process-inbound-message.job';
import { readAttempts } from '../security/rate-limits.repo';
import { EARLY_TALKER } from './pre-greeting';
import { CONNECTION_RATE, EARLY_TALK_COST, MAX_RECIPIENTS, type SmtpListener } from './smtp-listener';

/*
 * Hostile input against the real inbound listener over raw loopback sockets (nodemailer cannot send
 * most of it): each must get the right SMTP answer, and nothing may be stored half-way. The listener
 * runs with the production default size limit (10 MiB), so what is accepted here is accepted in
 * production. Processing runs on the real job worker, with DNS pointed at an empty loopback zone.
 */

const INBOUND = 'in.inboxpulse.test';
const DEFAULT_LIMIT = 10 * 1024 * 1024;

let t: TestApp;
let smtp: SmtpListener;
let dns: TestDnsServer;
let userId: number;

// ---- a raw SMTP client: exactly the bytes we write, every reply as the server sent it ----------

interface Reply {
  code: number;
  /** The reply's lines without the code, joined by newlines. */
  text: string;
}

class RawSmtp {
  private buffer = '';
  private lines: string[] = [];
  private readonly replies: Reply[] = [];
  private readonly waiting: { resolve: (r: Reply) => void; reject: (e: Error) => void }[] = [];
  isClosed = false;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => {}); // a reset after QUIT or destroy() is expected here
    socket.on('close', () => {
      this.isClosed = true;
      for (const w of this.waiting.splice(0)) w.reject(new Error('connection closed'));
    });
  }

  /** Connects and returns the client without waiting for its greeting (an early talker writes at once). */
  static async connect(port = smtp.port, localAddress = '127.0.0.1'): Promise<RawSmtp> {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    await once(socket, 'connect');
    return new RawSmtp(socket);
  }

  /** Connects and returns the client with its greeting. */
  static async open(port = smtp.port, localAddress = '127.0.0.1'): Promise<{ client: RawSmtp; greeting: Reply }> {
    const client = await RawSmtp.connect(port, localAddress);
    return { client, greeting: await client.next() };
  }

  private onData(chunk: Buffer) {
    this.buffer += chunk.toString('latin1');
    let end: number;
    while ((end = this.buffer.indexOf('\r\n')) >= 0) {
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      this.lines.push(line);
      // "250-..." continues a reply, "250 ..." (or a bare code) ends it.
      if (/^\d{3}(?: |$)/.test(line)) {
        const reply = { code: Number(line.slice(0, 3)), text: this.lines.map((l) => l.slice(4)).join('\n') };
        this.lines = [];
        const waiter = this.waiting.shift();
        if (waiter) waiter.resolve(reply);
        else this.replies.push(reply);
      }
    }
  }

  /** The next reply; fails after `timeoutMs` so a hang is a test failure, not a stuck suite. */
  next(timeoutMs = 10_000): Promise<Reply> {
    const queued = this.replies.shift();
    if (queued) return Promise.resolve(queued);
    if (this.isClosed) return Promise.reject(new Error('connection closed'));
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new Error(`no reply within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter = {
        resolve: (r: Reply) => (clearTimeout(timer), resolve(r)),
        reject: (e: Error) => (clearTimeout(timer), reject(e)),
      };
      this.waiting.push(waiter);
    });
  }

  /** Writes, waiting for the socket to drain so large messages do not pile up in this process. */
  async write(data: string | Buffer): Promise<void> {
    if (this.socket.write(typeof data === 'string' ? Buffer.from(data, 'latin1') : data) || this.isClosed) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.socket.off('drain', done).off('close', done);
        resolve();
      };
      this.socket.on('drain', done).on('close', done);
    });
  }

  async command(line: string): Promise<Reply> {
    await this.write(`${line}\r\n`);
    return this.next();
  }

  /** MAIL FROM, RCPT TO each, DATA: the transaction up to the 354, asserting each step. */
  async begin(from: string, rcpts: string[]): Promise<void> {
    expect((await this.command(`MAIL FROM:<${from}>`)).code).toBe(250);
    for (const r of rcpts) expect(await this.command(`RCPT TO:<${r}>`)).toMatchObject({ code: 250 });
    expect((await this.command('DATA')).code).toBe(354);
  }

  /** Sends a message body (dot-stuffed) and the terminator; returns the reply to it. */
  async finish(message: Buffer | string): Promise<Reply> {
    await this.write(dotStuff(typeof message === 'string' ? Buffer.from(message, 'latin1') : message));
    await this.write('\r\n.\r\n');
    return this.next(60_000);
  }

  destroy() {
    this.socket.destroy();
  }

  async quit() {
    if (!this.isClosed) await this.command('QUIT').catch(() => undefined);
    this.socket.destroy();
  }
}

/** One message to `to` over a raw session (EHLO, envelope, DATA, QUIT), as a hostile sender writes it: the DATA reply. */
async function sendRaw(to: string, message: Buffer | string): Promise<Reply> {
  const { client } = await RawSmtp.open();
  await client.command('EHLO hostile.test');
  await client.begin('bounce@brand.test', [to]);
  const reply = await client.finish(message);
  await client.quit();
  return reply;
}

/**
 * RFC 5321 4.5.2 transparency: a line starting with "." gets another. smtp-server removes one after
 * any LF (bare or not), so every "\n." is stuffed, not only "\r\n.".
 */
function dotStuff(message: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  if (message[0] === 0x2e) parts.push(Buffer.from('.'));
  for (let i = message.indexOf('\n.'); i >= 0; i = message.indexOf('\n.', i + 1)) {
    parts.push(message.subarray(from, i + 1), Buffer.from('.'));
    from = i + 1;
  }
  parts.push(message.subarray(from));
  return Buffer.concat(parts);
}

/** Deterministic bytes (xorshift32), so a failure can be reproduced byte for byte. */
function garbage(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

// ---- database probes -------------------------------------------------------------------------

const db = () => t.database.db;
const storedCount = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(inboundMessages)
  )[0].n;
const messageRow = async (id: number) =>
  (await db().select().from(inboundMessages).where(eq(inboundMessages.id, id)))[0];
const queuedId = (reply: Reply) => Number(/Queued as (\d+)/.exec(reply.text)![1]);

const newTest = () => createInboxTest(db(), userId, INBOUND);
const reportOf = (testId: number, timeoutMs = 20_000) =>
  waitUntil(
    async () => {
      const [row] = await db().select().from(inboxTestReports).where(eq(inboxTestReports.testId, testId));
      return row ? (row.report as InboxTestReport) : undefined;
    },
    `the report of test ${testId}`,
    { timeoutMs },
  );
/**
 * The processing job's error once it has failed (pg-boss keeps it in the job's output), so a test
 * fails at once with the reason instead of timing out while the job waits for its retry.
 */
async function jobError(messageId: number): Promise<string | undefined> {
  const result = await db().execute<{ output: { message?: string } | null }>(
    sql`select output from pgboss.job where name = 'process-inbound-message' and (data->>'messageId')::int = ${messageId} and state in ('retry', 'failed')`,
  );
  const row = result.rows[0];
  return row ? (row.output?.message ?? JSON.stringify(row.output)) : undefined;
}

/** The message row once processing ended; throws the job's error if processing threw. */
const finished = (id: number, timeoutMs = 20_000) =>
  waitUntil(
    async () => {
      const row = await messageRow(id);
      if (row.status !== 'received') return row;
      const error = await jobError(id);
      if (error) throw new Error(`processing message ${id} failed: ${error.slice(0, 400)}`);
      return undefined;
    },
    `message ${id} to be processed`,
    { timeoutMs },
  );

const HEADERS = (to: string, subject: string, extra = '') =>
  `From: News <news@brand.test>\r\nTo: ${to}\r\nSubject: ${subject}\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <hostile.${Date.now()}@brand.test>\r\n${extra}`;

beforeAll(async () => {
  // An empty zone: every lookup (SPF, DKIM, DNSBL, PTR) is a fast NXDOMAIN on loopback, never the internet.
  dns = await startDnsServer({});
  t = await createTestApp({ work: true, env: { INBOUND_DOMAIN: INBOUND, DNS_SERVERS: dns.address } });
  expect(t.env.SMTP_MAX_MESSAGE_BYTES).toBe(DEFAULT_LIMIT);
  smtp = await startTestSmtpListener(t);
  userId = (await signUp(t.app)).user.id;
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
  await dns?.close();
});

describe('messages over the size limit', () => {
  it('answers 552 at MAIL FROM when the declared SIZE is over the limit, and stores nothing', async () => {
    const before = await storedCount();
    const { client } = await RawSmtp.open();
    const ehlo = await client.command('EHLO hostile.test');
    expect(ehlo.text).toContain(`SIZE ${DEFAULT_LIMIT}`);
    expect(await client.command(`MAIL FROM:<a@brand.test> SIZE=${DEFAULT_LIMIT + 1}`)).toMatchObject({ code: 552 });
    // The transaction did not start: RCPT is out of sequence.
    expect((await client.command(`RCPT TO:<dmarc@${INBOUND}>`)).code).toBe(503);
    await client.quit();
    expect(await storedCount()).toBe(before);
  });

  it('answers 552 after DATA to an undeclared oversize message, stores nothing, and the session goes on', async () => {
    const before = await storedCount();
    const { client } = await RawSmtp.open();
    await client.command('EHLO hostile.test');
    await client.begin('a@brand.test', [`dmarc@${INBOUND}`]);
    const line = `${'a'.repeat(998)}\r\n`;
    const reply = await client.finish(
      HEADERS(`dmarc@${INBOUND}`, 'big') + '\r\n' + line.repeat(Math.ceil(DEFAULT_LIMIT / line.length) + 10),
    );
    expect(reply.code).toBe(552);
    expect(reply.text).toContain(`${DEFAULT_LIMIT} bytes`);
    expect(await storedCount()).toBe(before);
    // The refusal ends the transaction, not the session: the next message on the connection is taken.
    await client.begin('a@brand.test', [`dmarc@${INBOUND}`]);
    const small = await client.finish(HEADERS(`dmarc@${INBOUND}`, 'small') + '\r\nsmall\r\n');
    expect(small.code).toBe(250);
    await client.quit();
    expect(await storedCount()).toBe(before + 1);
  });

  // smtp-server passes the bytes on after the limit; a listener that kept them would let a sender
  // make the process hold any amount (x maxClients 500).
  it('does not buffer an oversize message beyond the limit while it streams in', async () => {
    const sent = 16 * DEFAULT_LIMIT; // 160 MiB
    const { client } = await RawSmtp.open();
    await client.command('EHLO hostile.test');
    await client.begin('a@brand.test', [`dmarc@${INBOUND}`]);
    global.gc?.();
    const baseline = process.memoryUsage().arrayBuffers;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 5);
    // One reused 1 MiB chunk of plain lines (no dots, no terminator): this side holds ~1 MiB at a time.
    const chunk = Buffer.from(`${'b'.repeat(1022)}\r\n`.repeat(1024));
    await client.write(HEADERS(`dmarc@${INBOUND}`, 'flood') + '\r\n');
    for (let sentBytes = 0; sentBytes < sent; sentBytes += chunk.length) await client.write(chunk);
    await client.write('\r\n.\r\n');
    const reply = await client.next(60_000);
    clearInterval(sampler);
    await client.quit();
    expect(reply.code).toBe(552);
    const grownMiB = (peak - baseline) / 1024 / 1024;
    // A listener that drops bytes past the limit keeps about the limit (10 MiB); dropped chunks and
    // socket buffers wait for the garbage collector, which measured ~43 MiB at the peak. One that
    // keeps everything holds all 160 MiB.
    expect(grownMiB, `Buffer memory grew by ${grownMiB.toFixed(0)} MiB while 160 MiB streamed in`).toBeLessThan(
      8 * (DEFAULT_LIMIT / 1024 / 1024),
    );
  }, 120_000);
});

describe('garbage a sender can put in a message', () => {
  it('takes 8-bit garbage in the body of a test message byte for byte, reports on it, and the worker goes on', async () => {
    const test = await newTest();
    // Random bytes plus the classics: NUL, invalid UTF-8, bare LF and CR, a lone "." line, a
    // CRLF.CRLF inside the body (it must stay content: dot-stuffing makes it so on the wire).
    const nasties = Buffer.from(
      '\0\0NUL\xff\xfe\xc3\x28\xe2\x82\r\nbare LF\nbare CR\r\n.\nlone dot\r\n.\r\n\r.\rend',
      'latin1',
    );
    const body = Buffer.concat([garbage(32 * 1024, 5), nasties, garbage(1024, 7)]);
    const message = Buffer.concat([
      Buffer.from(
        HEADERS(
          test.testEmailAddress,
          `[TEST-${test.id}] garbage`,
          'Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n',
        ) + '\r\n',
        'latin1',
      ),
      body,
    ]);
    const before = await storedCount();
    const reply = await sendRaw(test.testEmailAddress, message);
    expect(reply.code).toBe(250);
    expect(await storedCount()).toBe(before + 1);
    // Stored whole: the size is the message plus the CRLF that ends its last line on the wire.
    expect((await messageRow(queuedId(reply))).size).toBe(message.length + 2);

    const row = await finished(queuedId(reply));
    expect(row).toMatchObject({ status: 'processed', result: expect.stringContaining(`Started test ${test.id}`) });
    const report = await reportOf(test.id);
    expect(report.content.sizeBytes).toBe(message.length + 2);
    expect(report.content.subject).toBe(`[TEST-${test.id}] garbage`);
    // Read as a plain-text message whose bytes are broken (the next test names them).
    expect(report.findings.map((f) => f.id)).toEqual(
      expect.arrayContaining(['content.text-only', 'content.malformed-bytes']),
    );
    expect((await db().select().from(inboxTests).where(eq(inboxTests.id, test.id)))[0].status).toBe('completed');
  });

  // NUL bytes, bytes invalid in the declared UTF-8 and bare CR/LF are forbidden by RFC 5322/2045, and
  // receivers reject or mangle them: the report must say so.
  it('says that a body of NULs, invalid UTF-8 and bare CR/LF is broken', async () => {
    const test = await newTest();
    const body = Buffer.concat([garbage(4096, 13), Buffer.from('\0\xff\xfe\xc3\x28 bare\nLF bare\rCR', 'latin1')]);
    const reply = await sendRaw(
      test.testEmailAddress,
      Buffer.concat([
        Buffer.from(
          HEADERS(
            test.testEmailAddress,
            `[TEST-${test.id}] broken body`,
            'Content-Type: text/plain; charset=utf-8\r\n',
          ) + '\r\n',
        ),
        body,
      ]),
    );
    expect(reply.code).toBe(250);
    const report = await reportOf(test.id);
    const broken = report.findings.filter(
      (f) => f.category === 'content' && f.severity !== 'pass' && f.severity !== 'info',
    );
    expect(broken.map((f) => `${f.title} ${f.detail ?? ''}`).join('\n')).toMatch(
      /NUL|UTF-8|charset|encod|line ending|bare|binary|corrupt|unreadable/i,
    );
  });

  it('reports on a message that is nothing but random bytes (no headers at all)', async () => {
    const test = await newTest();
    const message = garbage(16 * 1024, 11);
    message[0] = 0; // starts with a NUL, and never with "." or a newline that would need stuffing at the start
    const reply = await sendRaw(test.testEmailAddress, message);
    expect(reply.code).toBe(250);
    expect(await finished(queuedId(reply))).toMatchObject({ status: 'processed' });
    const report = await reportOf(test.id);
    const ids = report.findings.map((f) => f.id);
    // No Date, no Message-ID, no From: the report says the message is not a proper e-mail.
    expect(ids).toEqual(expect.arrayContaining(['content.no-date', 'content.no-message-id']));
    expect(report.authentication?.headerFrom ?? []).toEqual([]);
    expect(report.score).toBeLessThan(5);
  });

  // A NUL in Subject, Date, Message-ID or List-Unsubscribe reaches the report, and PostgreSQL jsonb
  // and text refuse U+0000: unless it is replaced, the job throws on every attempt and the test
  // stays "running" with no report.
  it('stores and reports a message with NUL bytes in its headers', async () => {
    const test = await newTest();
    const reply = await sendRaw(
      test.testEmailAddress,
      `From: News <news@brand.test>\r\nTo: ${test.testEmailAddress}\r\nSubject: [TEST-${test.id}] null\0byte\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <nul.1@brand.test>\r\n\r\nHello\0there\r\n`,
    );
    expect(reply.code).toBe(250); // the listener stores it fine: bytea takes any byte
    expect(await finished(queuedId(reply))).toMatchObject({ status: 'processed' });
    const report = await reportOf(test.id, 2000);
    expect(report.content.subject).toMatch(/^\[TEST-\d+\] null.?byte$/);
  });

  it('still processes an ordinary message afterwards (the worker survived)', async () => {
    const test = await newTest();
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      ignoreTLS: true,
      name: 'mta.brand.test',
    });
    const info = await transport.sendMail({
      from: 'news@brand.test',
      to: test.testEmailAddress,
      subject: `[TEST-${test.id}] after`,
      text: 'Still alive.',
    });
    transport.close();
    expect(info.response).toMatch(/^250 /);
    expect((await reportOf(test.id)).content.subject).toBe(`[TEST-${test.id}] after`);
  });
});

describe('a million-line header', () => {
  // 1,000,000 lines of "X-H: 1" are 8 MB: under the default 10 MiB limit, so a sender can really
  // deliver this. (A million realistic header lines, ~40+ bytes each, would be over it and get the
  // 552 shown above.) It must be stored, and processing must end with a report, not hang the worker.
  it('is accepted under the default limit, stored, and analysed to a report within the test timeout', async () => {
    const test = await newTest();
    const message = Buffer.from(
      HEADERS(test.testEmailAddress, `[TEST-${test.id}] headers`) + 'X-H: 1\r\n'.repeat(1_000_000) + '\r\nbody\r\n',
      'latin1',
    );
    expect(message.length).toBeLessThan(DEFAULT_LIMIT);
    const { client } = await RawSmtp.open();
    await client.command('EHLO hostile.test');
    await client.begin('bounce@brand.test', [test.testEmailAddress]);
    const started = Date.now();
    const reply = await client.finish(message);
    await client.quit();
    expect(reply.code).toBe(250);
    expect((await messageRow(queuedId(reply))).size).toBe(message.length + 2);
    const report = await reportOf(test.id, 80_000);
    // mailparser refuses a header block this big; the report says the message cannot be read.
    expect(report.findings.find((f) => f.id === 'content.unparseable')).toMatchObject({ severity: 'error' });
    expect(await finished(queuedId(reply))).toMatchObject({ status: 'processed' });
    console.info(`million-line header: 250 to report in ${Date.now() - started} ms`);
  }, 90_000);
});

describe('a backlog of messages', () => {
  // pg-boss 10 enforces singletonKey only on queues with the short, singleton or stately policy.
  // Maintenance queues every message still "received" after 5 minutes again, every minute: on a
  // "standard" queue a backlog turned into duplicates (bench:smtp saw 1.24 and 1.69 jobs per message).
  it('gets one processing job per message however often the message is queued', async () => {
    // Deferred, so the worker cannot take the first job before the second is sent; same key and
    // queue as queueInboundProcessing. The message id names no message: the jobs would be no-ops.
    const messageId = 2_000_000_000;
    for (let i = 0; i < 3; i++)
      await t.jobs.send(
        processInboundMessageJob,
        { messageId },
        { singletonKey: `inbound-${messageId}`, startAfterSeconds: 3600 },
      );
    const result = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from pgboss.job where name = 'process-inbound-message' and (data->>'messageId')::int = ${messageId}`,
    );
    expect(result.rows[0].n).toBe(1);
  });
});

describe('the envelope', () => {
  it('answers 550 at RCPT for unknown recipients and never reaches DATA', async () => {
    const before = await storedCount();
    const { client } = await RawSmtp.open();
    await client.command('EHLO hostile.test');
    expect((await client.command('MAIL FROM:<a@brand.test>')).code).toBe(250);
    for (const rcpt of [
      `nobody@${INBOUND}`,
      `test-999999-0123456789abcdef@${INBOUND}`,
      'someone@gmail.com',
      `postmaster@${INBOUND}`,
    ]) {
      expect(await client.command(`RCPT TO:<${rcpt}>`), rcpt).toMatchObject({ code: 550 });
    }
    // Without an accepted recipient there is no DATA.
    expect((await client.command('DATA')).code).toBe(503);
    await client.quit();
    expect(await storedCount()).toBe(before);
  });

  it('stores nothing when the sender disconnects in the middle of DATA, and keeps serving', async () => {
    const test = await newTest();
    const before = await storedCount();
    const { client } = await RawSmtp.open();
    await client.command('EHLO hostile.test');
    await client.begin('a@brand.test', [`dmarc@${INBOUND}`, test.testEmailAddress]);
    await client.write(HEADERS(`dmarc@${INBOUND}`, 'cut short') + '\r\n' + 'half a message\r\n'.repeat(5000));
    client.destroy();
    // Once the listener has handled the close and settled the half message, anything it would store is stored.
    await waitUntil(() => smtp.busy(), 'the listener to be done with the cut connection', {
      until: (busy) => busy === 0,
    });
    expect(await storedCount()).toBe(before);
    const { client: next, greeting } = await RawSmtp.open();
    expect(greeting.code).toBe(220);
    await next.quit();
  });

  it('answers a pipelined burst in order, one reply per command, each message stored with its own recipients', async () => {
    const test = await newTest();
    const before = await storedCount();
    const { client } = await RawSmtp.open();
    const ehlo = await client.command('EHLO hostile.test');
    expect(ehlo.text).toContain('PIPELINING');
    // Hostile: two whole transactions, bodies included, and QUIT in one write without waiting for
    // the 354s (RFC 2920 says wait; the server must still keep every byte in its place).
    const message = (to: string, n: number) => `${HEADERS(to, `burst ${n}`)}\r\nmessage ${n}\r\n.\r\n`;
    await client.write(
      [
        'MAIL FROM:<a@brand.test>',
        `RCPT TO:<dmarc+one@${INBOUND}>`,
        `RCPT TO:<nobody@${INBOUND}>`,
        `RCPT TO:<${test.testEmailAddress}>`,
        'DATA',
        message(`dmarc+one@${INBOUND}`, 1) + 'MAIL FROM:<b@brand.test>',
        `RCPT TO:<dmarc+two@${INBOUND}>`,
        'DATA',
        message(`dmarc+two@${INBOUND}`, 2) + 'NOOP',
        'QUIT',
        '',
      ].join('\r\n'),
    );
    const codes: number[] = [];
    const replies: Reply[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await client.next();
      codes.push(r.code);
      replies.push(r);
    }
    expect(codes).toEqual([250, 250, 550, 250, 354, 250, 250, 250, 354, 250, 250, 221]);
    await once(client.socket, 'close');
    expect(await storedCount()).toBe(before + 3); // message 1 twice (dmarc and inbox_test kinds), message 2 once
    const first = replies[5].text
      .match(/Queued as ([\d,]+)/)![1]
      .split(',')
      .map(Number);
    const rows = await Promise.all(first.map(messageRow));
    expect(rows.map((r) => r.rcptTo).sort()).toEqual([[`dmarc+one@${INBOUND}`], [test.testEmailAddress]]);
    expect((await messageRow(queuedId(replies[9]))).rcptTo).toEqual([`dmarc+two@${INBOUND}`]);
  });

  // smtp-server keeps a repeated RCPT once in its envelope, and the 50-recipient check counts that
  // envelope: the stored list must not grow with repeats either.
  it(`keeps a repeated recipient once, however often it is given (${MAX_RECIPIENTS + 10} times here)`, async () => {
    const { client } = await RawSmtp.open();
    await client.command('EHLO hostile.test');
    const repeats = Array.from({ length: MAX_RECIPIENTS + 10 }, (_, i) =>
      i % 2 ? `DMARC@${INBOUND}` : `dmarc@${INBOUND}`,
    );
    await client.begin('a@brand.test', repeats);
    const reply = await client.finish(HEADERS(`dmarc@${INBOUND}`, 'twice') + '\r\nx\r\n');
    await client.quit();
    expect(reply.code).toBe(250);
    expect((await messageRow(queuedId(reply))).rcptTo).toHaveLength(1);
  });

  it('takes bare-LF commands and bodies, but never ends DATA on a bare-LF dot (no SMTP smuggling)', async () => {
    const before = await storedCount();
    const { client } = await RawSmtp.open();
    expect((await client.write('EHLO hostile.test\n'), await client.next()).code).toBe(250);
    expect((await client.write('MAIL FROM:<a@brand.test>\n'), await client.next()).code).toBe(250);
    expect((await client.write(`RCPT TO:<dmarc@${INBOUND}>\n`), await client.next()).code).toBe(250);
    expect((await client.write('DATA\n'), await client.next()).code).toBe(354);
    // A bare-LF body, then "\n.\n" followed by a smuggled second transaction: a server that ended
    // DATA here would take the smuggled message as a separate one from this sender.
    const smuggled = `MAIL FROM:<ceo@bank.test>\nRCPT TO:<dmarc@${INBOUND}>\nDATA\nFrom: ceo@bank.test\n\nsmuggled\n`;
    await client.write(
      `From: a@brand.test\nTo: dmarc@${INBOUND}\nSubject: bare lf\n\nline one\nline two\n.\n${smuggled}`,
    );
    // Only CRLF.CRLF ends the message: one message, the smuggled lines inside it.
    await client.write('\r\n.\r\n');
    const reply = await client.next();
    expect(reply.code).toBe(250);
    // Replies come in order: a server that had ended DATA at the bare-LF dot would have answered it
    // and each smuggled command before this QUIT. Nothing came between the 354 and these two replies.
    expect((await client.command('QUIT')).code).toBe(221);
    await client.quit();
    expect(await storedCount()).toBe(before + 1);
    // A DMARC mail without a report fails processing and keeps its bytes for the operator.
    const row = await finished(queuedId(reply));
    expect(row.raw!.toString('latin1')).toContain('\n.\nMAIL FROM:<ceo@bank.test>\n');
  });

  it('refuses NUL bytes in the envelope with a 5xx and stores nothing', async () => {
    const before = await storedCount();
    const { client } = await RawSmtp.open();
    expect((await client.command('EHLO bad\0name')).code).toBeGreaterThanOrEqual(500);
    expect((await client.command('EHLO hostile.test')).code).toBe(250);
    expect((await client.command('MAIL FROM:<a\0b@brand.test>')).code).toBeGreaterThanOrEqual(500);
    expect((await client.command('MAIL FROM:<a@brand.test>')).code).toBe(250);
    expect((await client.command(`RCPT TO:<dmarc\0@${INBOUND}>`)).code).toBeGreaterThanOrEqual(500);
    expect((await client.command(`RCPT TO:<test-1-0123456789abcdef\0@${INBOUND}>`)).code).toBeGreaterThanOrEqual(500);
    expect((await client.command('DATA')).code).toBe(503);
    // The session is intact after the refusals.
    expect((await client.command('RSET')).code).toBe(250);
    await client.quit();
    expect(await storedCount()).toBe(before);
  });

  it(`takes ${MAX_RECIPIENTS} recipients, answers 452 to the next one, and stores the ${MAX_RECIPIENTS}`, async () => {
    const { client } = await RawSmtp.open();
    await client.command('EHLO hostile.test');
    expect((await client.command('MAIL FROM:<a@brand.test>')).code).toBe(250);
    const rcpts = Array.from({ length: MAX_RECIPIENTS }, (_, i) => `dmarc+${i + 1}@${INBOUND}`);
    for (const r of rcpts) expect((await client.command(`RCPT TO:<${r}>`)).code).toBe(250);
    expect(await client.command(`RCPT TO:<dmarc+${MAX_RECIPIENTS + 1}@${INBOUND}>`)).toMatchObject({ code: 452 });
    expect((await client.command('DATA')).code).toBe(354);
    const reply = await client.finish(HEADERS(`dmarc@${INBOUND}`, 'fifty') + '\r\nx\r\n');
    await client.quit();
    expect(reply.code).toBe(250);
    expect((await messageRow(queuedId(reply))).rcptTo).toEqual(rcpts);
  });
});

describe('a sender that holds on to the listener', () => {
  // Small limits, so each is reached in a test's time; the production values are SESSION_LIMITS.
  let held: SmtpListener;
  const LIMITS = {
    messagesPerSession: 2,
    sessionDeadlineMs: 3_000,
    dataGraceMs: 500,
    minDataBytesPerSecond: 1_000,
    crowdedAt: 2,
    bytesPerNetworkPerHour: 3_000,
  };
  beforeAll(async () => {
    held = await startTestSmtpListener(t, {}, LIMITS);
  });
  afterAll(async () => {
    await held?.close();
  });
  const small = (n: number) => HEADERS(`dmarc@${INBOUND}`, `small ${n}`) + '\r\nx\r\n';

  // Each test that sends mail does so from its own loopback network (/24): the hourly byte count is per network and
  // lives in the database.
  it(`ends a connection after ${LIMITS.messagesPerSession} messages with 421`, async () => {
    const { client } = await RawSmtp.open(held.port, '127.0.4.1');
    await client.command('EHLO hostile.test');
    for (let n = 1; n <= LIMITS.messagesPerSession; n++) {
      await client.begin('a@brand.test', [`dmarc@${INBOUND}`]);
      expect((await client.finish(small(n))).code).toBe(250);
    }
    expect(await client.command('MAIL FROM:<a@brand.test>')).toMatchObject({
      code: 421,
      text: expect.stringContaining('Too many messages'),
    });
    await waitUntil(() => client.isClosed, 'the listener to close the connection');
  });

  it('ends a session at its deadline however busy the sender keeps it', async () => {
    const { client } = await RawSmtp.open(held.port);
    await client.command('EHLO hostile.test');
    const started = Date.now();
    // NOOPs keep the socket from ever being idle; only the deadline ends the session.
    const last = await waitUntil(() => client.command('NOOP'), 'the session deadline', {
      until: (reply) => reply.code !== 250,
      timeoutMs: 10_000,
    });
    expect(last).toMatchObject({ code: 421, text: expect.stringContaining('time limit') });
    expect(Date.now() - started).toBeGreaterThanOrEqual(LIMITS.sessionDeadlineMs - 100);
    await waitUntil(() => client.isClosed, 'the listener to close the connection');
  });

  it('sends away a sender that trickles its message, and stores nothing', async () => {
    const before = await storedCount();
    const { client } = await RawSmtp.open(held.port, '127.0.5.1');
    await client.command('EHLO hostile.test');
    await client.begin('a@brand.test', [`dmarc@${INBOUND}`]);
    await client.write(HEADERS(`dmarc@${INBOUND}`, 'slow') + '\r\n');
    // One byte every 50 ms: 20 bytes a second, far under the minimum.
    const trickle = setInterval(() => void client.write('y'), 50);
    try {
      expect(await client.next(10_000)).toMatchObject({ code: 421, text: expect.stringContaining('too slowly') });
    } finally {
      clearInterval(trickle);
    }
    await waitUntil(() => client.isClosed, 'the listener to close the connection');
    await waitUntil(() => held.busy(), 'the listener to be done with the connection', { until: (busy) => busy === 0 });
    expect(await storedCount()).toBe(before);
  });

  it('keeps slots for other senders when crowded: a network holding one gets no second', async () => {
    await waitUntil(() => held.busy(), 'the earlier connections to be gone', { until: (busy) => busy === 0 });
    const first = await RawSmtp.open(held.port);
    const second = await RawSmtp.open(held.port);
    expect([first.greeting.code, second.greeting.code]).toEqual([220, 220]);
    const third = await RawSmtp.open(held.port);
    expect(third.greeting).toMatchObject({ code: 421, text: expect.stringContaining('Too many connections') });
    // Another address of the same /24 is the same sender.
    const neighbour = await RawSmtp.open(held.port, '127.0.0.2');
    expect(neighbour.greeting).toMatchObject({ code: 421, text: expect.stringContaining('Too many connections') });
    const other = await RawSmtp.open(held.port, '127.0.2.1');
    expect(other.greeting.code).toBe(220);
    for (const { client } of [first, second, other]) await client.quit();
  });

  it('takes no more bytes from one network in an hour than the limit, and says to try later', async () => {
    const before = await storedCount();
    const { client } = await RawSmtp.open(held.port, '127.0.3.1');
    await client.command('EHLO hostile.test');
    const body = (n: number) => HEADERS(`dmarc@${INBOUND}`, `volume ${n}`) + '\r\n' + 'z'.repeat(1_800) + '\r\n';
    await client.begin('a@brand.test', [`dmarc@${INBOUND}`]);
    expect((await client.finish(body(1))).code).toBe(250);
    await client.begin('a@brand.test', [`dmarc@${INBOUND}`]);
    expect(await client.finish(body(2))).toMatchObject({ code: 452, text: expect.stringContaining('try again later') });
    await client.quit();
    expect(await storedCount()).toBe(before + 1);
    // Past the limit, the next transaction is turned away before its data.
    const again = await RawSmtp.open(held.port, '127.0.3.1');
    await again.client.command('EHLO hostile.test');
    expect(await again.client.command('MAIL FROM:<a@brand.test>')).toMatchObject({ code: 452 });
    await again.client.quit();
    // So is another address of the same /24: one sender with many addresses is one sender.
    const neighbour = await RawSmtp.open(held.port, '127.0.3.2');
    await neighbour.client.command('EHLO hostile.test');
    expect(await neighbour.client.command('MAIL FROM:<a@brand.test>')).toMatchObject({ code: 452 });
    await neighbour.client.quit();
  });
});

describe('many addresses of one network, and many networks together', () => {
  // The production values are SESSION_LIMITS (20 connections a network, 100 MiB a network and 2 GiB in all an hour).
  let bounded: SmtpListener;
  const LIMITS = { connectionsPerNetwork: 3, bytesPerNetworkPerHour: 3_000, bytesPerHour: 5_000 };
  beforeAll(async () => {
    bounded = await startTestSmtpListener(t, {}, LIMITS);
  });
  afterAll(async () => {
    await bounded?.close();
  });

  it('holds a network to its connections however many of its addresses it uses, and leaves others their slots', async () => {
    const held = [];
    for (let host = 1; host <= LIMITS.connectionsPerNetwork; host++) {
      const opened = await RawSmtp.open(bounded.port, `127.0.7.${host}`);
      expect(opened.greeting.code).toBe(220);
      held.push(opened);
    }
    const oneMore = await RawSmtp.open(bounded.port, '127.0.7.200');
    expect(oneMore.greeting).toMatchObject({ code: 421, text: expect.stringContaining('Too many connections') });
    const elsewhere = await RawSmtp.open(bounded.port, '127.0.8.1');
    expect(elsewhere.greeting.code).toBe(220);
    for (const { client } of [...held, elsewhere]) await client.quit();
  });

  it('takes no more bytes in an hour from all networks together than the total, and says to try later', async () => {
    // The hour's total starts here: other listeners of this file have stored mail under the same counter.
    await t.database.pool.query(`DELETE FROM rate_limits WHERE key = 'smtp-bytes-all:all'`);
    const before = await storedCount();
    const body = (n: number) => HEADERS(`dmarc@${INBOUND}`, `total ${n}`) + '\r\n' + 'z'.repeat(1_800) + '\r\n';
    const codes = [];
    for (const [n, network] of ['127.0.9.1', '127.0.10.1', '127.0.11.1'].entries()) {
      const { client } = await RawSmtp.open(bounded.port, network);
      await client.command('EHLO hostile.test');
      await client.begin('a@brand.test', [`dmarc@${INBOUND}`]);
      codes.push((await client.finish(body(n))).code);
      await client.quit();
    }
    // Each network is under its own bound; the third message would take all of them past the total.
    expect(codes).toEqual([250, 250, 452]);
    expect(await storedCount()).toBe(before + 2);
  });
});

describe('slots kept for expected senders, and a pause before a stranger is greeted', () => {
  // Small numbers, so each is reached in a test's time; the production values are SESSION_LIMITS (500 connections, 50
  // of them kept for expected senders, 2 s before a stranger's greeting).
  let slots: SmtpListener;
  const LIMITS = { maxConnections: 6, reservedConnections: 2, greetingDelayMs: 3_000 };
  // Delivered an inbox-test message the product analysed, as an ESP does.
  const EXPECTED = '127.0.20.1';
  // Delivered mail too, but nothing the product could use (a DMARC mail without a report).
  const UNUSED = '127.0.21.1';
  /** One message from `ip` through the main listener, and the row once processing ended. */
  const deliverFrom = async (ip: string, to: string, subject: string) => {
    const { client } = await RawSmtp.open(smtp.port, ip);
    await client.command('EHLO sender.test');
    await client.begin('bounce@brand.test', [to]);
    const reply = await client.finish(HEADERS(to, subject) + '\r\nhello\r\n');
    await client.quit();
    return finished(queuedId(reply));
  };
  beforeAll(async () => {
    const test = await newTest();
    expect(await deliverFrom(EXPECTED, test.testEmailAddress, `[TEST-${test.id}] from an ESP`)).toMatchObject({
      status: 'processed',
    });
    expect(await deliverFrom(UNUSED, `dmarc@${INBOUND}`, 'no report here')).toMatchObject({ status: 'failed' });
    // It reads the expected senders when it starts (and every few minutes after).
    slots = await startTestSmtpListener(t, {}, LIMITS);
  });
  afterAll(async () => {
    await slots?.close();
  });
  /** Opens connections from `ips` at once, and their greetings. */
  const openAll = (ips: string[]) => Promise.all(ips.map((ip) => RawSmtp.open(slots.port, ip)));
  const timed = async <T>(work: () => Promise<T>) => {
    const started = performance.now();
    const result = await work();
    return { result, ms: performance.now() - started };
  };

  it('greets an expected sender at once and makes a stranger wait for its greeting', async () => {
    const [expected, stranger] = await Promise.all([
      timed(() => RawSmtp.open(slots.port, '127.0.20.2')),
      timed(() => RawSmtp.open(slots.port, '127.0.22.1')),
    ]);
    expect([expected.result.greeting.code, stranger.result.greeting.code]).toEqual([220, 220]);
    expect(stranger.ms).toBeGreaterThanOrEqual(LIMITS.greetingDelayMs);
    expect(expected.ms).toBeLessThan(LIMITS.greetingDelayMs);
    for (const { client } of [expected.result, stranger.result]) await client.quit();
  });

  it('refuses strangers once only the kept slots are left, and lets expected senders have them', async () => {
    await waitUntil(() => slots.busy(), 'the earlier connections to be gone', { until: (busy) => busy === 0 });
    const strangerSlots = LIMITS.maxConnections - LIMITS.reservedConnections;
    const strangers = await openAll(Array.from({ length: strangerSlots }, (_, i) => `127.0.${30 + i}.1`));
    expect(strangers.map((s) => s.greeting.code)).toEqual(Array(strangerSlots).fill(220));
    // A new stranger, and one whose mail the product could not use, find no slot.
    for (const ip of ['127.0.40.1', UNUSED]) {
      const refused = await RawSmtp.open(slots.port, ip);
      expect(refused.greeting).toMatchObject({ code: 421, text: expect.stringContaining('Too many connections') });
    }
    // The expected network (any address of its /24) takes the kept slots, up to the listener's whole limit.
    const expected = await openAll([EXPECTED, '127.0.20.9']);
    expect(expected.map((e) => e.greeting.code)).toEqual([220, 220]);
    const beyond = await RawSmtp.open(slots.port, '127.0.20.10');
    expect(beyond.greeting.code).toBe(421);
    for (const { client } of [...strangers, ...expected]) await client.quit();
  });

  it('answers 554 to a client that speaks before its greeting, and counts it against its network', async () => {
    const client = await RawSmtp.connect(slots.port, '127.0.41.1');
    await client.write('EHLO early.test\r\n');
    expect(await client.next()).toMatchObject({ code: 554, text: expect.stringContaining(EARLY_TALKER) });
    await waitUntil(() => client.isClosed, 'the listener to close the connection');
    // An early talk costs the network a tenth of its connection window: ten, and it is refused until the window ends.
    await waitUntil(() => readAttempts(db(), `${CONNECTION_RATE.name}:127.0.41.0/24`), 'the early talk to be counted', {
      until: (attempts) => attempts.count >= EARLY_TALK_COST,
    });
  });

  it('sends away a stranger that speaks during its pause, even half a command, at once', async () => {
    await waitUntil(() => slots.busy(), 'the earlier connections to be gone', { until: (busy) => busy === 0 });
    const client = await RawSmtp.connect(slots.port, '127.0.42.1');
    // The listener has taken the connection and is holding its greeting back.
    await waitUntil(() => slots.busy(), 'the listener to hold the connection', { until: (busy) => busy === 1 });
    const { result: reply, ms } = await timed(async () => (await client.write('EH'), await client.next()));
    expect(reply).toMatchObject({ code: 554, text: expect.stringContaining(EARLY_TALKER) });
    expect(ms).toBeLessThan(LIMITS.greetingDelayMs);
    await waitUntil(() => client.isClosed, 'the listener to close the connection');
    await waitUntil(() => slots.busy(), 'the listener to let the connection go', { until: (busy) => busy === 0 });
  });
});

describe.skipIf(!hasOpenssl)('STARTTLS (needs openssl to make a test certificate)', () => {
  let tlsSmtp: SmtpListener;

  beforeAll(async () => {
    const { key, cert } = makeSelfSignedCert(INBOUND);
    tlsSmtp = await startTestSmtpListener(t, { SMTP_TLS_CERT: cert, SMTP_TLS_KEY: key });
  });
  afterAll(async () => {
    await tlsSmtp?.close();
  });

  it('offers STARTTLS with a certificate and delivers over it', async () => {
    const { client } = await RawSmtp.open(tlsSmtp.port);
    expect((await client.command('EHLO hostile.test')).text.split('\n')).toContain('STARTTLS');
    await client.quit();

    const before = await storedCount();
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: tlsSmtp.port,
      secure: false,
      requireTLS: true,
      tls: { rejectUnauthorized: false },
    });
    const info = await transport.sendMail({
      from: 'news@brand.test',
      to: `dmarc@${INBOUND}`,
      subject: 'over TLS',
      text: 'encrypted',
    });
    transport.close();
    expect(info.response).toMatch(/^250 /);
    expect(await storedCount()).toBe(before + 1);
    // The TLS the sender used is kept with the message (the compliance scorecard's evidence of TLS).
    const [latest] = await t.database.db
      .select({ tls: inboundMessages.tls })
      .from(inboundMessages)
      .orderBy(desc(inboundMessages.id))
      .limit(1);
    expect(latest.tls).toMatch(/^TLSv1\.[23] TLS_/);
  });

  it('does not offer STARTTLS without one', async () => {
    const { client } = await RawSmtp.open();
    expect((await client.command('EHLO hostile.test')).text).not.toContain('STARTTLS');
    expect((await client.command('STARTTLS')).code).toBeGreaterThanOrEqual(500);
    await client.quit();
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      requireTLS: true,
      tls: { rejectUnauthorized: false },
    });
    await expect(
      transport.sendMail({ from: 'news@brand.test', to: `dmarc@${INBOUND}`, subject: 'x', text: 'x' }),
    ).rejects.toThrow(/STARTTLS/);
    transport.close();
  });
});
