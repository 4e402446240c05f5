import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../test/dns-server';
import { createTestApp, signUp, type TestApp } from '../test/test-app';

/*
 * A new user's first hour (issue 13): the DMARC record we suggest sends reports to our own address,
 * dmarc@INBOUND_DOMAIN. Until the operator publishes the RFC 7489 7.1 authorization for it, the
 * domain check warns (reports will not come) but the record is valid, the domain healthy, and an
 * inbox test can be created.
 */

const INBOUND = 'in.first-hour.test';
const DOMAIN = 'first-hour-brand.com';

let dns: TestDnsServer;
let t: TestApp;
beforeAll(async () => {
  dns = await startDnsServer();
  t = await createTestApp({ env: { DNS_SERVERS: dns.address, INBOUND_DOMAIN: INBOUND } });
});
afterAll(async () => {
  await t.close();
  await dns.close();
});

describe('following the suggested DMARC record', () => {
  it('leaves the domain healthy while the report address is not yet authorized, with a warning saying what to publish', async () => {
    const { client } = await signUp(t.app);
    const { reportAddress } = (await client.get('/api/dmarc/intake')).json();
    expect(reportAddress).toBe(`dmarc@${INBOUND}`);

    const domain = (await client.post('/api/domains', { domain: DOMAIN })).json();
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'der' })
      .toString('base64');
    dns.zone[domain.verificationRecord.name] = { TXT: [domain.verificationRecord.value] };
    dns.zone[DOMAIN] = { TXT: ['v=spf1 include:_spf.google.com ~all'], A: ['192.0.2.10'] };
    dns.zone['_spf.google.com'] = { TXT: ['v=spf1 ip4:192.0.2.0/24 ~all'] };
    dns.zone[`default._domainkey.${DOMAIN}`] = { TXT: [`v=DKIM1; k=rsa; p=${key}`] };
    dns.zone[`_dmarc.${DOMAIN}`] = { TXT: [`v=DMARC1; p=quarantine; rua=mailto:${reportAddress}`] };

    const verified = (await client.post(`/api/domains/${domain.id}/verify`)).json();
    expect(verified).toMatchObject({ status: 'healthy', isVerified: true, dmarcStatus: 'valid' });
    expect(verified.checks.dmarc.externalReportDestinations).toEqual([{ domain: INBOUND, authorized: false }]);
    expect(verified.checks.dmarc.findings).toEqual([
      {
        severity: 'warning',
        message: `${INBOUND} has not authorized receiving DMARC reports for ${DOMAIN}, so receivers do not send reports to ${reportAddress} until it does. Your DMARC record is valid and its policy applies.`,
        fix: `The operator of ${INBOUND} publishes a TXT record "v=DMARC1" at ${DOMAIN}._report._dmarc.${INBOUND}, or once for every domain at *._report._dmarc.${INBOUND}. Until then reports go only to your other rua= addresses.`,
      },
    ]);

    // Create Test is allowed: the domain is healthy.
    const created = await client.post('/api/inbox-tests', { testType: 'automatic' });
    expect(created.statusCode).toBe(200);

    // The operator's one wildcard authorizes every user's domain; this zone has no wildcards, so the name is written
    // out.
    dns.zone[`${DOMAIN}._report._dmarc.${INBOUND}`] = { TXT: ['v=DMARC1'] };
    const authorized = (await client.post(`/api/domains/${domain.id}/verify`)).json();
    expect(authorized).toMatchObject({ status: 'healthy', dmarcStatus: 'valid' });
    expect(authorized.checks.dmarc.externalReportDestinations).toEqual([{ domain: INBOUND, authorized: true }]);
    expect(authorized.checks.dmarc.findings).toEqual([]);
  });
});
