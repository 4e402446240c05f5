import { eq } from 'drizzle-orm';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxTestReport } from '@contracts/inbox-tests';
import { inboxTestReports } from '../server/platform/db/schema/index';
import { type SmtpListener } from '../server/platform/smtp/smtp-listener';
import { createInboxTest } from '../server/inbox-tests/inbox-tests.repo';
import { startDnsServer, type TestDnsServer } from '../server/test/dns-server';
import { createTestApp, startTestSmtpListener, signUp, type TestApp } from '../server/test/test-app';
import { waitUntil } from '../server/test/wait-until';
import { defaultSubjectFor, parseCommandLine, sendTestEmail, SendTestEmailError } from './send-test-email';

/*
 * The send-test-email script against a real listener and worker: what a new user gets from
 * `npm run send-test-email` must be a message the analysis finds well made, apart from what depends
 * on their DNS.
 */

const INBOUND = 'in.inboxpulse.test';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const keyDir = mkdtempSync(path.join(tmpdir(), 'inboxpulse-send-test-'));
const keyFile = path.join(keyDir, 'dkim.pem');
writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());

let t: TestApp;
let smtp: SmtpListener;
let dns: TestDnsServer;
let userId: number;

function reportOf(testId: number): Promise<InboxTestReport> {
  return waitUntil(
    async () => {
      const [row] = await t.database.db.select().from(inboxTestReports).where(eq(inboxTestReports.testId, testId));
      return row ? (row.report as InboxTestReport) : undefined;
    },
    `the report of test ${testId}`,
    { timeoutMs: 20_000 },
  );
}

beforeAll(async () => {
  dns = await startDnsServer({
    'brand.test': { TXT: ['v=spf1 ip4:127.0.0.1 -all'] },
    's1._domainkey.brand.test': {
      TXT: [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`],
    },
    '_dmarc.brand.test': { TXT: ['v=DMARC1; p=reject'] },
  });
  t = await createTestApp({ work: true, env: { INBOUND_DOMAIN: INBOUND, DNS_SERVERS: dns.address } });
  smtp = await startTestSmtpListener(t);
  userId = (await signUp(t.app)).user.id;
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
  await dns?.close();
});

describe('send-test-email', () => {
  it('delivers a message the analysis finds complete: both parts, one-click unsubscribe, Date, Message-ID, DKIM', async () => {
    const test = await createInboxTest(t.database.db, userId, INBOUND);
    const options = parseCommandLine([
      '--to',
      test.testEmailAddress,
      '--port',
      String(smtp.port),
      '--from',
      'news@brand.test',
      '--dkim-domain',
      'brand.test',
      '--dkim-selector',
      's1',
      '--dkim-key',
      keyFile,
    ]);
    if (options === 'help') throw new Error('unexpected help');
    const result = await sendTestEmail(options);
    expect(result.response).toMatch(/^250 .*Queued as \d+/);
    expect(result.subject).toBe(`[TEST-${test.id}] Our spring collection is here`);

    const report = await reportOf(test.id);
    expect(report.content).toMatchObject({
      subject: result.subject,
      hasText: true,
      hasHtml: true,
      oneClickUnsubscribe: true,
      hasDate: true,
      hasMessageId: true,
    });
    expect(report.authentication?.dkim).toEqual([
      expect.objectContaining({ domain: 'brand.test', result: 'pass', aligned: true }),
    ]);
    expect(report.authentication?.dmarc?.result).toBe('pass');
    // Nothing about the message itself costs points: only what depends on the sender's setup may.
    expect(report.deductions.filter((d) => d.id.startsWith('content.'))).toEqual([]);
  });

  it('says "Is InboxPulse running?" when nothing listens on the port', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as { port: number };
    await new Promise((r) => closed.close(r));
    const error = await sendTestEmail({ to: `test-1-0123456789abcdef@${INBOUND}`, port }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(SendTestEmailError);
    expect((error as Error).message).toMatch(
      new RegExp(`Could not connect to 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)\\. Is InboxPulse running\\?`),
    );
  });

  it("passes on the server's refusal of an address that names no test, with a hint", async () => {
    const error = await sendTestEmail({ to: `test-999999-0123456789abcdef@${INBOUND}`, port: smtp.port }).catch(
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(SendTestEmailError);
    expect((error as Error).message).toMatch(
      /^The server refused the message at RCPT: 550 .*No such mailbox.*Check the address/,
    );
  });

  it('reads its command line strictly', () => {
    expect(() => parseCommandLine([])).toThrow(/--to is required/);
    expect(() => parseCommandLine(['--to', 'x@y', '--port', 'http'])).toThrow(/--port must be a port number/);
    expect(() => parseCommandLine(['--to', 'x@y', '--dkim-domain', 'brand.test'])).toThrow(/all three/);
    expect(() =>
      parseCommandLine([
        '--to',
        'x@y',
        '--dkim-domain',
        'd',
        '--dkim-selector',
        's',
        '--dkim-key',
        path.join(keyDir, 'missing.pem'),
      ]),
    ).toThrow(/Could not read the DKIM key/);
    expect(() => parseCommandLine(['--to', 'x@y', '--nope'])).toThrow(/Unknown option '--nope'/);
    expect(parseCommandLine(['--help'])).toBe('help');
    expect(() => parseCommandLine(['--to', 'test@in.example', '--subject', '[TEST-3] hi'])).toThrow(
      /send to the test's own address/,
    );
    expect(
      parseCommandLine([
        '--to',
        'test-3-0123456789abcdef@in.example',
        '--subject',
        '[TEST-3] hi',
        '--host',
        'mx.example',
        '--port',
        '25',
      ]),
    ).toMatchObject({
      to: 'test-3-0123456789abcdef@in.example',
      subject: '[TEST-3] hi',
      host: 'mx.example',
      port: 25,
      dkim: undefined,
    });
    expect(defaultSubjectFor('test-12-0123456789abcdef@inbox.localhost')).toBe(
      '[TEST-12] Our spring collection is here',
    );
    expect(defaultSubjectFor('test@inbox.localhost')).toBe('Our spring collection is here');
  });
});
