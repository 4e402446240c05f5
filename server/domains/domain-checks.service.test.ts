import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '@contracts/alerts';
import type { TestDnsServer } from '../test/dns-server';
import { createTestAppWithDns, signUp, type TestApp, type TestClient } from '../test/test-app';
import { evaluateAlerts } from '../alerts/evaluation/evaluate-alerts';
import { describeKey, keyFingerprint, recheckDomain, spfChanges, tagChanges } from './domain-checks.service';
import { findDomainById } from './domains.repo';

let t: TestApp;
let dns: TestDnsServer;
let close: () => Promise<void>;
beforeAll(async () => ({ t, dns, close } = await createTestAppWithDns()));
afterAll(() => close?.());

const rsaKey = (bits = 2048) =>
  generateKeyPairSync('rsa', { modulusLength: bits })
    .publicKey.export({ type: 'spki', format: 'der' })
    .toString('base64');
/** The fingerprint as anyone can compute it from the published key: SHA-256 of its bytes, 16 hex digits. */
const fingerprintOf = (base64: string) =>
  createHash('sha256').update(Buffer.from(base64, 'base64')).digest('hex').slice(0, 16);

function publish(
  domain: string,
  { dkim = rsaKey() as string | null, spf = 'v=spf1 ip4:192.0.2.0/24 -all', dmarc = 'v=DMARC1; p=reject' } = {},
) {
  dns.zone[domain] = { TXT: [spf] };
  dns.zone[`_dmarc.${domain}`] = { TXT: [dmarc] };
  if (dkim) dns.zone[`mail._domainkey.${domain}`] = { TXT: [`v=DKIM1; k=rsa; p=${dkim}`] };
  else delete dns.zone[`mail._domainkey.${domain}`];
}

async function addDomain(client: TestClient, name: string): Promise<number> {
  return (await client.post('/api/domains', { domain: name })).json().id;
}

async function verify(client: TestClient, id: number) {
  const res = await client.post(`/api/domains/${id}/verify`);
  expect(res.statusCode).toBe(200);
  return res.json() as { status: string };
}

async function alertsOf(client: TestClient): Promise<Alert[]> {
  return (await client.get('/api/alerts')).json();
}

const ctx = () => ({ db: t.database.db, dns: t.dns, jobs: t.jobs });

/** Evaluations waiting in the queue for the user (no worker runs here). */
async function queuedEvaluations(userId: number): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: string }>(
    `select count(*) as n from pgboss.job where name = 'evaluate-alerts' and (data->>'userId')::int = $1`,
    [userId],
  );
  return Number(rows[0].n);
}

async function clearQueuedEvaluations(userId: number): Promise<void> {
  await t.database.pool.query(`delete from pgboss.job where name = 'evaluate-alerts' and (data->>'userId')::int = $1`, [
    userId,
  ]);
}

describe('alerts of a domain check', () => {
  it('says a rotated DKIM key in words: selector, key size and both fingerprints, never the key', async () => {
    const { client } = await signUp(t.app);
    const oldKey = rsaKey(1024);
    const newKey = rsaKey(2048);
    publish('rotating-brand.com', { dkim: oldKey });
    const id = await addDomain(client, 'rotating-brand.com');
    expect((await verify(client, id)).status).toBe('healthy');
    expect(await alertsOf(client)).toEqual([]); // a clean first check stays quiet

    publish('rotating-brand.com', { dkim: newKey });
    await verify(client, id);
    const [alert, ...others] = await alertsOf(client);
    expect(others).toEqual([]);
    expect(alert).toMatchObject({
      type: 'dns_changes',
      severity: 'warning',
      title: 'DKIM record changed for rotating-brand.com',
    });
    expect(alert.message).toBe(
      `The DKIM key at selector mail changed from a 1024-bit RSA key (SHA-256 fingerprint ${fingerprintOf(oldKey)}) ` +
        `to a 2048-bit RSA key (SHA-256 fingerprint ${fingerprintOf(newKey)}).`,
    );
    expect(alert.metadata).toEqual({
      record: 'DKIM',
      selector: 'mail',
      before: { keyType: 'rsa', keyBits: 1024, fingerprint: fingerprintOf(oldKey) },
      after: { keyType: 'rsa', keyBits: 2048, fingerprint: fingerprintOf(newKey) },
    });
    expect(JSON.stringify(alert)).not.toContain(newKey.slice(0, 40));
    expect(alert.message.length).toBeLessThan(200);
  });

  it('calls a key published after the first check good news (info), and a key removed a warning', async () => {
    const { client } = await signUp(t.app);
    publish('growing-brand.com', { dkim: null });
    const id = await addDomain(client, 'growing-brand.com');
    expect((await verify(client, id)).status).toBe('warning');
    const key = rsaKey();
    publish('growing-brand.com', { dkim: key });
    expect((await verify(client, id)).status).toBe('healthy');
    const published = (await alertsOf(client)).filter((a) => a.type === 'dns_changes');
    expect(published).toEqual([
      expect.objectContaining({
        severity: 'info',
        title: 'DKIM record published for growing-brand.com',
        message: `A DKIM key was published at selector mail: a 2048-bit RSA key (SHA-256 fingerprint ${fingerprintOf(key)}).`,
      }),
    ]);
    // Issues to Verified is the evaluation's to say (it resolves its condition): no alert of the check's own.
    expect((await alertsOf(client)).filter((a) => a.type === 'authentication_failure')).toEqual([]);

    publish('growing-brand.com', { dkim: null });
    await verify(client, id);
    expect((await alertsOf(client)).find((a) => a.title === 'DKIM record removed for growing-brand.com')).toMatchObject(
      {
        severity: 'warning',
        message: `The DKIM key at selector mail is gone (it was a 2048-bit RSA key (SHA-256 fingerprint ${fingerprintOf(key)})): mail signed with it now fails DKIM.`,
      },
    );
  });

  it('calls a lookup that fails (SERVFAIL) no record removed: the last DKIM key and DMARC policy are kept, said to be kept, and nothing is raised', async () => {
    const { client } = await signUp(t.app);
    // A subdomain whose DMARC policy is its Organizational Domain's (RFC 9989 4.10.1): the second lookup of the walk is
    // the one that fails.
    const key = rsaKey();
    publish('news.flaky-org.com', { dkim: key, dmarc: 'v=DMARC1; p=none' });
    delete dns.zone['_dmarc.news.flaky-org.com'];
    dns.zone['_dmarc.flaky-org.com'] = { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@flaky-org.com'] };
    const id = await addDomain(client, 'news.flaky-org.com');
    expect((await verify(client, id)).status).toBe('healthy');

    dns.servfail.add('mail._domainkey.news.flaky-org.com');
    dns.servfail.add('_dmarc.flaky-org.com');
    try {
      expect((await verify(client, id)).status).toBe('healthy');
      expect((await alertsOf(client)).filter((a) => a.type === 'dns_changes')).toEqual([]);
      const { checks } = (await client.get(`/api/domains/${id}`)).json();
      expect(checks.dkim.selectors).toEqual([
        expect.objectContaining({ selector: 'mail', status: 'valid', lastFoundAt: expect.any(String) }),
      ]);
      expect(checks.dmarc).toMatchObject({
        status: 'valid',
        record: 'v=DMARC1; p=reject; rua=mailto:dmarc@flaky-org.com',
        failedLookup: { name: '_dmarc.flaky-org.com', code: 'ESERVFAIL' },
      });
      expect(checks.dmarc.findings[0].message).toMatch(
        /^The DMARC lookup of _dmarc\.flaky-org\.com failed \(ESERVFAIL\) at this check; what is shown is the verdict of the check of \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
      );
      await verify(client, id); // failing twice in a row keeps the same answer, with one note
      const again = (await client.get(`/api/domains/${id}`)).json().checks;
      expect(
        again.dmarc.findings.filter((f: { message: string }) => f.message.startsWith('The DMARC lookup')),
      ).toHaveLength(1);
    } finally {
      dns.servfail.clear();
    }
    // Answering again, the same records are no record published either.
    expect((await verify(client, id)).status).toBe('healthy');
    expect((await alertsOf(client)).filter((a) => a.type === 'dns_changes')).toEqual([]);
  });

  it('raises no alert of its own on a first check that finds problems: it queues the evaluation, whose condition says it', async () => {
    const { client, user } = await signUp(t.app);
    const id = await addDomain(client, 'brand-new-and-broken.com'); // nothing published at all
    expect((await verify(client, id)).status).toBe('error');
    expect(await alertsOf(client)).toEqual([]);
    expect(await queuedEvaluations(user.id)).toBe(1);

    await evaluateAlerts(ctx(), user.id);
    const all = await alertsOf(client);
    // The bulk-sender rules those records break are one compliance alert for the domain (ADR 055), not one a provider.
    expect(all.filter((a) => a.type === 'compliance')).toEqual([
      expect.objectContaining({ domain: 'brand-new-and-broken.com', severity: 'warning' }),
    ]);
    const alerts = all.filter((a) => a.type !== 'compliance');
    expect(alerts).toEqual([
      expect.objectContaining({
        type: 'authentication_failure',
        severity: 'error',
        title: 'brand-new-and-broken.com fails its authentication checks',
      }),
    ]);
    expect(alerts[0].message).toMatch(/^The domain does not resolve: it has no A, AAAA, MX or SPF record\. /);
    expect(alerts[0].message).toContain('DKIM');
    expect(alerts[0].message).toMatch(/Open the domain to see how to fix each record\.$/);
    expect(alerts[0].metadata).toMatchObject({ status: 'error', spf: 'missing', dkim: 'missing', dmarc: 'missing' });

    // Checked again unchanged: nothing new, and no evaluation is asked for (the status did not change).
    await clearQueuedEvaluations(user.id);
    await verify(client, id);
    expect(await alertsOf(client)).toHaveLength(2);
    expect(await queuedEvaluations(user.id)).toBe(0);
  });

  it('two checks finishing together store one outcome and raise nothing themselves', async () => {
    const { client, user } = await signUp(t.app);
    const id = await addDomain(client, 'racing-brand.com');
    const row = (await findDomainById(t.database.db, id))!;
    // The job hands recheckDomain the row it read, as here; both start from the same never-checked row.
    await Promise.all([recheckDomain(ctx(), row), recheckDomain(ctx(), row)]);
    expect(await alertsOf(client)).toEqual([]);
    expect(await queuedEvaluations(user.id)).toBe(1);
  });

  it('says SPF and DMARC changes term by term and tag by tag; removal is named as such', async () => {
    const { client } = await signUp(t.app);
    publish('policy-brand.com', { spf: 'v=spf1 ip4:192.0.2.0/24 ~all', dmarc: 'v=DMARC1; p=none; pct=50' });
    const id = await addDomain(client, 'policy-brand.com');
    await verify(client, id);
    expect(await alertsOf(client)).toEqual([]);

    publish('policy-brand.com', {
      spf: 'v=spf1 include:_spf.sender.net ip4:192.0.2.0/24 -all',
      dmarc: 'v=DMARC1; p=reject; rua=mailto:d@policy-brand.com',
    });
    dns.zone['_spf.sender.net'] = { TXT: ['v=spf1 ip4:198.51.100.0/24 -all'] };
    await verify(client, id);
    const titled = (title: string) => alertsOf(client).then((all) => all.find((a) => a.title === title));
    expect(await titled('SPF record changed for policy-brand.com')).toMatchObject({
      severity: 'warning',
      message: 'The SPF record of policy-brand.com changed: ~all became -all; added include:_spf.sender.net.',
      metadata: {
        record: 'SPF',
        before: 'v=spf1 ip4:192.0.2.0/24 ~all',
        after: 'v=spf1 include:_spf.sender.net ip4:192.0.2.0/24 -all',
      },
    });
    expect(await titled('DMARC record changed for policy-brand.com')).toMatchObject({
      severity: 'warning',
      message:
        'The DMARC record of policy-brand.com changed: p went from none to reject; rua added (mailto:d@policy-brand.com); pct removed (was 50).',
    });

    delete dns.zone['_dmarc.policy-brand.com'];
    await verify(client, id);
    expect(await titled('DMARC record removed for policy-brand.com')).toMatchObject({
      severity: 'warning',
      message:
        'The DMARC record of policy-brand.com is gone (it had p=reject, rua=mailto:d@policy-brand.com): receivers no longer apply your policy or send you reports.',
    });
    expect(await titled('policy-brand.com fails its authentication checks')).toBeUndefined();

    dns.zone['_dmarc.policy-brand.com'] = { TXT: ['v=DMARC1;p=reject'] };
    await verify(client, id);
    expect(await titled('DMARC record published for policy-brand.com')).toMatchObject({
      severity: 'info',
      message: 'policy-brand.com now publishes a DMARC record: p=reject.',
    });
  });
});

describe('words for record changes', () => {
  it('pairs a term with its changed qualifier or value, lists the rest, and ignores spacing', () => {
    expect(spfChanges('v=spf1 a mx ~all', 'v=spf1 a  mx -all')).toEqual(['~all became -all']);
    expect(spfChanges('v=spf1 redirect=_spf.a.com', 'v=spf1 redirect=_spf.b.com')).toEqual([
      'redirect=_spf.a.com became redirect=_spf.b.com',
    ]);
    expect(spfChanges('v=spf1 a  mx -all', 'v=spf1 a mx -all')).toEqual([]);
    expect(spfChanges('v=spf1 a mx -all', 'v=spf1 mx a -all')).toEqual(['the same terms now come in another order']);
    const many = Array.from({ length: 9 }, (_, i) => `ip4:192.0.2.${i}`);
    expect(spfChanges('v=spf1 -all', `v=spf1 ${many.join(' ')} -all`)).toEqual([
      `added ${many.slice(0, 5).join(', ')} and 4 more`,
    ]);
    expect(tagChanges({ p: 'none' }, { p: 'none' })).toEqual([]);
  });

  it('describes keys by type, size and fingerprint', () => {
    const key = rsaKey();
    expect(keyFingerprint(key)).toBe(fingerprintOf(key));
    expect(keyFingerprint(key.replace(/(.{64})/g, '$1 '))).toBe(fingerprintOf(key)); // published in several strings
    expect(describeKey({ keyType: 'ed25519', keyBits: 256, fingerprint: 'abcd' })).toBe(
      'an Ed25519 key (SHA-256 fingerprint abcd)',
    );
    expect(describeKey({ keyType: 'rsa', keyBits: 2048, fingerprint: null })).toBe('a revoked key (empty p=)');
    expect(describeKey({ keyType: 'rsa', keyBits: null, fingerprint: 'abcd' })).toBe(
      'an RSA key of unreadable size (SHA-256 fingerprint abcd)',
    );
  });
});
