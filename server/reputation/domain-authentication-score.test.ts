import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainReputation } from '@contracts/reputation';
import type { TestDnsServer } from '../test/dns-server';
import { createTestAppWithDns, signUp, type TestApp, type TestClient } from '../test/test-app';
import { runReputationCheckNow } from './reputation-run.test-support';

let t: TestApp;
let dns: TestDnsServer;
let close: () => Promise<void>;
beforeAll(async () => ({ t, dns, close } = await createTestAppWithDns()));
afterAll(() => close?.());

const DKIM_KEY = `v=DKIM1; k=ed25519; p=${Buffer.alloc(32, 7).toString('base64')}`;

/** A domain whose SPF, DKIM and DMARC are published as given, added and checked through the API as a user would. */
async function checkedDomain(client: TestClient, domain: string, records: { spf: string[]; dmarc: string | null }) {
  dns.zone[domain] = { TXT: records.spf, MX: [{ exchange: `mx.${domain}`, priority: 10 }] };
  dns.zone[`mail._domainkey.${domain}`] = { TXT: [DKIM_KEY] };
  if (records.dmarc) dns.zone[`_dmarc.${domain}`] = { TXT: [records.dmarc] };
  const added = await client.post('/api/domains', { domain });
  expect(added.statusCode, added.body).toBe(200);
  const checked = await client.post(`/api/domains/${added.json().id}/verify`);
  expect(checked.statusCode, checked.body).toBe(200);
  return checked.json() as { spfStatus: string; dkimStatus: string; dmarcStatus: string };
}

describe("a domain's reputation score", () => {
  it('takes off points for a missing DMARC record or a broken SPF record, and says which and why; a fully authenticated domain keeps 100', async () => {
    const { user, client } = await signUp(t.app);
    const valid = await checkedDomain(client, 'all-valid-brand.com', {
      spf: ['v=spf1 ip4:192.0.2.0/24 -all'],
      dmarc: 'v=DMARC1; p=reject',
    });
    expect(valid).toMatchObject({ spfStatus: 'valid', dkimStatus: 'valid', dmarcStatus: 'valid' });
    const noDmarc = await checkedDomain(client, 'no-dmarc-brand.com', {
      spf: ['v=spf1 ip4:192.0.2.0/24 -all'],
      dmarc: null,
    });
    expect(noDmarc).toMatchObject({ spfStatus: 'valid', dmarcStatus: 'missing' });
    // Two SPF records: RFC 7208 4.5, a permerror for every receiver.
    const spfBroken = await checkedDomain(client, 'spf-permerror-brand.com', {
      spf: ['v=spf1 ip4:192.0.2.0/24 -all', 'v=spf1 include:_spf.google.com ~all'],
      dmarc: 'v=DMARC1; p=reject',
    });
    expect(spfBroken).toMatchObject({ spfStatus: 'invalid', dmarcStatus: 'valid' });

    await runReputationCheckNow(t, user.id);
    const scored = (await client.get('/api/reputation/domains')).json() as DomainReputation[];
    const of = (domain: string) => scored.find((d) => d.domain === domain)!;

    expect(of('all-valid-brand.com').reputationScore).toBe(100);
    expect(of('all-valid-brand.com').scoreFactors).toContainEqual({
      label: 'SPF, DKIM and DMARC valid',
      points: 0,
      detail: 'all-valid-brand.com publishes a working SPF record, a DKIM key and a DMARC record.',
    });

    const missing = of('no-dmarc-brand.com');
    expect(missing.reputationScore).toBeLessThan(90); // not "Excellent"
    expect(missing.scoreFactors).toContainEqual({
      label: 'No DMARC record',
      points: 15,
      detail:
        'no-dmarc-brand.com publishes no DMARC record: receivers have no policy for mail that fails SPF and DKIM, and Gmail and Yahoo require one of bulk senders.',
    });

    const broken = of('spf-permerror-brand.com');
    expect(broken.reputationScore).toBeLessThan(90);
    const spf = broken.scoreFactors.find((f) => f.label === 'SPF record broken')!;
    expect(spf.points).toBe(15);
    expect(spf.detail).toMatch(
      /^Receivers cannot use the SPF record of spf-permerror-brand\.com \(a permerror\), so SPF fails for its mail: .+/,
    );
  });

  it('takes nothing off a domain whose records were never checked, and says so', async () => {
    const { user, client } = await signUp(t.app);
    const added = await client.post('/api/domains', { domain: 'never-checked-brand.com' });
    expect(added.statusCode, added.body).toBe(200);
    await runReputationCheckNow(t, user.id);
    const [domain] = (await client.get('/api/reputation/domains')).json() as DomainReputation[];
    expect(domain!.reputationScore).toBe(100);
    expect(domain!.scoreFactors).toContainEqual({
      label: 'Authentication not checked yet',
      points: 0,
      detail:
        "never-checked-brand.com's SPF, DKIM and DMARC records have not been checked yet; they count in the score once they are.",
    });
  });
});
