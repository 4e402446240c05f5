import { daysAgo } from '@contracts/utc-day';
import { eq, sql } from 'drizzle-orm';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBlocklist } from '../engine/blocklists/dnsbl-catalogue';
import { blocklistResults, domains } from '../platform/db/schema/index';
import { createTestApp, signUp, type TestApp } from '../test/test-app';
import { waitUntil } from '../test/wait-until';
import { lookUpDomainRegistrationRunner } from './look-up-domain-registration.runner';
import { scheduleDomainRegistrationsRunner } from './schedule-domain-registrations.runner';
import { wholeYearsSince } from './domain-reputation.routes';

// A registry's RDAP server on loopback, answering as Verisign does for .com (trimmed to what is read).
let rdap: Server;
const asked: string[] = [];
let t: TestApp;
beforeAll(async () => {
  rdap = createServer((req, res) => {
    const name = (req.url ?? '').replace(/^\/domain\//, '');
    asked.push(name);
    if (name === 'unregistered-name.com') {
      res.writeHead(404, { 'content-type': 'application/rdap+json' }).end('{"errorCode":404}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/rdap+json' }).end(
      JSON.stringify({
        objectClassName: 'domain',
        ldhName: name.toUpperCase(),
        entities: [
          {
            objectClassName: 'entity',
            roles: ['registrar'],
            vcardArray: [
              'vcard',
              [
                ['version', {}, 'text', '4.0'],
                ['fn', {}, 'text', 'MarkMonitor Inc.'],
              ],
            ],
          },
        ],
        events: [
          { eventAction: 'registration', eventDate: '2011-03-02T18:20:11Z' },
          { eventAction: 'expiration', eventDate: '2030-03-02T18:20:11Z' },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => rdap.listen(0, '127.0.0.1', resolve));
  t = await createTestApp({
    work: true,
    env: { RDAP_BASE_URL: `http://127.0.0.1:${(rdap.address() as AddressInfo).port}` },
  });
});
afterAll(async () => {
  await t.close();
  rdap.closeAllConnections();
  await new Promise((resolve) => rdap.close(resolve));
});

const registrationOf = async (id: number) => {
  const [row] = await t.database.db
    .select({ registrar: domains.registrar, registeredAt: domains.registeredAt, rdapCheckedAt: domains.rdapCheckedAt })
    .from(domains)
    .where(eq(domains.id, id));
  return row;
};

describe('GET /api/reputation/domains', () => {
  it('answers nulls before any check, then the registrar and age from RDAP, looked up once', async () => {
    const { client } = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'brand-one.com' })).json();
    const first = await client.get('/api/reputation/domains');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual([
      {
        id: domain.id,
        domain: 'brand-one.com',
        reputationScore: null,
        scoreFactors: [],
        domainAge: null,
        registrar: null,
        blacklistCount: 0,
        totalProviders: 0,
        lastChecked: null,
        reputationDetails: [],
      },
    ]);
    const [looked] = await waitUntil(
      async () => (await client.get('/api/reputation/domains')).json(),
      'the RDAP look-up',
      {
        until: (list) => list[0]?.registrar !== null,
      },
    );
    expect(looked).toMatchObject({
      registrar: 'MarkMonitor Inc.',
      domainAge: wholeYearsSince(new Date('2011-03-02T18:20:11Z')),
    });
    expect(looked.domainAge).toBeGreaterThanOrEqual(15);
    const lookUps = asked.filter((name) => name === 'brand-one.com').length;
    await client.get('/api/reputation/domains');
    // A look-up queued while the first one ran (the screen asked again meanwhile) finds it answered.
    await lookUpDomainRegistrationRunner.run({ domainId: domain.id }, {
      db: t.database.db,
      env: t.env,
      log: pino({ level: 'silent' }),
    } as never);
    expect(asked.filter((name) => name === 'brand-one.com').length).toBe(lookUps);
    expect((await t.app.inject({ method: 'GET', url: '/api/reputation/domains' })).statusCode).toBe(401);
  });

  it('keeps age and registrar unknown when the registry does not know the name', async () => {
    const { client } = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'unregistered-name.com' })).json();
    await client.get('/api/reputation/domains');
    await waitUntil(() => registrationOf(domain.id), 'the RDAP look-up to be recorded', {
      until: (row) => row?.rdapCheckedAt !== null,
    });
    expect((await client.get('/api/reputation/domains')).json()[0]).toMatchObject({ domainAge: null, registrar: null });
  });

  it('reads the score and the domain lists answers, counting listings that are not ignored', async () => {
    const { client, user } = await signUp(t.app);
    const other = await signUp(t.app);
    const domain = (await client.post('/api/domains', { domain: 'scored-brand.com' })).json();
    const theirs = (await other.client.post('/api/domains', { domain: 'scored-brand.com' })).json();
    const factors = [{ label: 'Blocklists', points: 15, detail: 'Listed on 1 widely used list' }];
    await t.database.db
      .update(domains)
      .set({ reputationScore: 84.6, reputationFactors: factors })
      .where(eq(domains.id, domain.id));
    const checkedAt = new Date('2026-11-25T08:00:00Z');
    const later = new Date('2026-11-25T08:00:03Z');
    await t.database.db.insert(blocklistResults).values([
      { userId: user.id, domainId: domain.id, listId: 'spamhaus-dbl', status: 'clear', checkedAt },
      {
        userId: user.id,
        domainId: domain.id,
        listId: 'surbl-multi',
        status: 'listed',
        answers: ['127.0.0.8'],
        reason: 'Phishing',
        checkedAt: later,
      },
      {
        userId: other.user.id,
        domainId: theirs.id,
        listId: 'spamhaus-dbl',
        status: 'listed',
        answers: ['127.0.1.2'],
        checkedAt,
      },
    ]);
    const [row] = (await client.get('/api/reputation/domains')).json();
    const surbl = findBlocklist('surbl-multi')!;
    expect(row).toMatchObject({
      reputationScore: 85,
      scoreFactors: factors,
      blacklistCount: 1,
      totalProviders: 2,
      lastChecked: later.toISOString(),
    });
    expect(row.reputationDetails.map((d: { listId: string }) => d.listId)).toEqual(['surbl-multi', 'spamhaus-dbl']);
    expect(row.reputationDetails[0]).toMatchObject({
      listed: true,
      provider: surbl.name,
      answers: ['127.0.0.8'],
      reason: 'Phishing',
      ignored: false,
    });
    await t.database.db.execute(
      sql`insert into blocklist_ignores (user_id, list_id) values (${user.id}, 'surbl-multi')`,
    );
    expect((await client.get('/api/reputation/domains')).json()[0].blacklistCount).toBe(0);
  });
});

describe('the daily RDAP schedule', () => {
  it('looks up domains never looked up or last looked up over 30 days ago, and leaves recent ones', async () => {
    const { client } = await signUp(t.app);
    const stale = (await client.post('/api/domains', { domain: 'stale-brand.com' })).json();
    const fresh = (await client.post('/api/domains', { domain: 'fresh-brand.com' })).json();
    await t.database.db
      .update(domains)
      .set({ rdapCheckedAt: daysAgo(40) })
      .where(eq(domains.id, stale.id));
    const recent = daysAgo(1);
    await t.database.db.update(domains).set({ rdapCheckedAt: recent }).where(eq(domains.id, fresh.id));

    await scheduleDomainRegistrationsRunner.run({}, {
      db: t.database.db,
      jobs: t.jobs,
      log: pino({ level: 'silent' }),
    } as never);
    const looked = await waitUntil(() => registrationOf(stale.id), 'the stale domain to be looked up', {
      until: (row) => row?.registrar !== null,
    });
    expect(looked.registeredAt).toEqual(new Date('2011-03-02T18:20:11Z'));
    expect(await registrationOf(fresh.id)).toMatchObject({ registrar: null, rdapCheckedAt: recent });
    expect(asked).not.toContain('fresh-brand.com');
  });

  it('counts whole years by the calendar', () => {
    expect(wholeYearsSince(new Date('2020-02-29T00:00:00Z'), new Date('2021-02-28T23:59:59Z'))).toBe(0);
    expect(wholeYearsSince(new Date('2020-02-29T00:00:00Z'), new Date('2021-03-01T00:00:00Z'))).toBe(1);
    expect(wholeYearsSince(new Date('1997-09-15T04:00:00Z'), new Date('2026-09-15T03:59:59Z'))).toBe(28);
    expect(wholeYearsSince(new Date('1997-09-15T04:00:00Z'), new Date('2026-09-15T04:00:00Z'))).toBe(29);
  });
});
