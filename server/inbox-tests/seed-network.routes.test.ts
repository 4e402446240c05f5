import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxTestReport } from '@contracts/inbox-tests';
import { seedMailboxes } from '../platform/db/schema/index';
import { createTestApp, signUp, type TestApp, type TestClient } from '../test/test-app';

let t: TestApp;
let user: TestClient;

const seed = (address: string, provider: string, region: string, active = true) => ({
  address,
  provider,
  mailboxSystem: provider,
  region,
  country: 'Somewhere',
  imapHost: '127.0.0.1',
  imapPort: 143,
  imapSecure: false,
  imapUser: address,
  passwordEncrypted: 'v1:not-used-here',
  spamFolders: ['Junk'],
  active,
});

beforeAll(async () => {
  t = await createTestApp();
  user = (await signUp(t.app)).client;
});
afterAll(() => t?.close());

describe('GET /api/seed-network/status', () => {
  it('says honestly that no seed network is configured', async () => {
    expect((await user.get('/api/seed-network/status')).json()).toEqual({
      configured: false,
      totalProviders: 0,
      totalAddresses: 0,
      byRegion: {},
    });
  });

  it('counts the active seeds: providers, addresses, and providers per region', async () => {
    await t.database.db
      .insert(seedMailboxes)
      .values([
        seed('a1@gmail.test', 'Gmail', 'North America'),
        seed('a2@gmail.test', 'Gmail', 'North America'),
        seed('b1@outlook.test', 'Outlook', 'North America'),
        seed('c1@gmx.test', 'GMX', 'Europe'),
        seed('gone@old.test', 'Old Provider', 'Asia Pacific', false),
      ]);
    expect((await user.get('/api/seed-network/status')).json()).toEqual({
      configured: true,
      totalProviders: 3,
      totalAddresses: 4,
      byRegion: { 'North America': 2, Europe: 1 },
    });
  });

  it('is for signed-in users only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/seed-network/status' })).statusCode).toBe(401);
  });
});

describe('POST /api/simulate-email', () => {
  it('analyses the content of a message that was not sent, marked simulated', async () => {
    const response = await user.post('/api/simulate-email', {
      fromEmail: 'news@brand.test',
      subject: 'FREE MONEY!!! Act now',
      content: 'Click here',
      htmlContent: '<a href="https://bit.ly/x"><img src="https://brand.test/a.png"></a>',
    });
    expect(response.statusCode).toBe(200);
    const report = response.json() as InboxTestReport;
    expect(report).toMatchObject({ simulated: true, envelope: null, authentication: null, connectingIp: null });
    expect(report.content.subject).toBe('FREE MONEY!!! Act now');
    expect(report.content.shorteners).toContain('bit.ly');
    const ids = report.deductions.map((d) => d.id);
    expect(ids).toEqual(expect.arrayContaining(['content.url-shorteners', 'content.subject-excessive-punctuation']));
    expect(report.score).toBeLessThan(9);
  });

  it('answers 400 with the reason to a bad body', async () => {
    for (const [body, reason] of [
      [{ subject: 's', content: 'c' }, 'fromEmail'],
      [{ fromEmail: 'not an address', subject: 's', content: 'c' }, 'fromEmail must be an e-mail address'],
      [{ fromEmail: 'a@b.test', subject: 's'.repeat(999), content: 'c' }, 'subject is longer than 998 characters'],
      [{ fromEmail: 'a@b.test', subject: 's', content: 42 }, 'content'],
    ] as const) {
      const response = await user.post('/api/simulate-email', body);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(reason);
    }
  });

  it('refuses a body over its size limit with 413', async () => {
    const response = await user.post('/api/simulate-email', {
      fromEmail: 'a@b.test',
      subject: 's',
      content: 'x'.repeat(4 * 1024 * 1024),
    });
    expect(response.statusCode).toBe(413);
  });
});
