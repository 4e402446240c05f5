import pino from 'pino';
import { dayStart, utcDay } from '@contracts/utc-day';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../platform/context';
import { createTestAppWithDns, signUp, type TestAppWithDns } from '../test/test-app';
import { refreshSendingServiceNetworksRunner } from './refresh-sending-service-networks.runner';
import { reportXml, type TestReport } from './report-xml.test-support';
import { uploadReport } from './upload-client.test-support';

/*
 * Google's include tree as Google publishes it for Workspace customers (include:_spf.google.com, documented at
 * https://support.google.com/a/answer/10685031 and https://support.google.com/a/answer/10026322), as dug on
 * 2024-03-05; _netblocks2 and _netblocks3 are left out, so the refresh reads a smaller tree.
 */
const GOOGLE_TREE = {
  '_spf.google.com': 'v=spf1 include:_netblocks.google.com ~all',
  '_netblocks.google.com':
    'v=spf1 ip4:35.190.247.0/24 ip4:64.233.160.0/19 ip4:66.102.0.0/20 ip4:66.249.80.0/20 ip4:72.14.192.0/18 ip4:74.125.0.0/16 ip4:108.177.8.0/21 ip4:173.194.0.0/16 ip4:209.85.128.0/17 ip4:216.58.192.0/19 ip4:216.239.32.0/19 ~all',
};

let env: TestAppWithDns;

beforeAll(async () => {
  env = await createTestAppWithDns();
  for (const [name, record] of Object.entries(GOOGLE_TREE)) env.dns.zone[name] = { TXT: [record] };
  // The domain publishes Google's include and not Amazon SES's.
  env.dns.zone['covered-brand.com'] = { TXT: ['v=spf1 include:_spf.google.com -all'] };
  // 54.240.8.40 sent as a8-40.smtp-out.amazonses.com (a Received header in the linux-fsdevel archive, 21 Feb 2023).
  env.dns.zone['40.8.240.54.in-addr.arpa'] = { PTR: ['a8-40.smtp-out.amazonses.com'] };
  const ctx = { db: env.t.database.db, dns: env.t.dns, log: pino({ level: 'silent' }) } as unknown as AppContext;
  await refreshSendingServiceNetworksRunner.run({}, ctx);
});
afterAll(() => env?.close());

describe('DMARC sources named by their sending service', () => {
  it('names an IP without reverse DNS by the network its service publishes, and says whether SPF and DKIM cover it', async () => {
    const { client } = await signUp(env.t.app);
    const domain = (await client.post('/api/domains', { domain: 'covered-brand.com' })).json();
    const verified = await client.post(`/api/domains/${domain.id}/verify`);
    expect(verified.json()).toMatchObject({ spfStatus: 'valid' });
    const report: TestReport = {
      orgName: 'google.com',
      reportId: 'services-1',
      domain: 'covered-brand.com',
      p: 'none',
      begin: dayStart(utcDay(Date.now() - 24 * 3600 * 1000)),
      records: [
        // Google Workspace mail: 209.85.221.53 has no PTR in this zone, only Google's published network names it.
        {
          ip: '209.85.221.53',
          count: 40,
          dkim: 'pass',
          spf: 'pass',
          dkimAuth: [{ domain: 'covered-brand.com', result: 'pass' }],
          spfAuth: [{ domain: 'covered-brand.com', result: 'pass' }],
        },
        // Amazon SES with its own return-path and signature: aligned for neither.
        {
          ip: '54.240.8.40',
          count: 25,
          dkim: 'fail',
          spf: 'fail',
          dkimAuth: [{ domain: 'amazonses.com', result: 'pass' }],
          spfAuth: [{ domain: 'eu-west-1.amazonses.com', result: 'pass' }],
        },
      ],
    };
    expect((await uploadReport(env.t.app, client, reportXml(report))).json()).toMatchObject({ imported: 1 });

    const { sources } = (await client.get('/api/dmarc/analytics?domain=covered-brand.com')).json();
    expect(sources).toMatchObject([
      {
        ips: ['209.85.221.53'],
        reverseDns: null,
        provider: 'Google Workspace',
        providerMatchedBy: 'published-network',
        coverage: {
          spf: 'covered',
          dkim: 'covered',
          spfRecord: { include: '_spf.google.com', includedBy: ['covered-brand.com'], notIncludedBy: [] },
        },
      },
      {
        ips: ['54.240.8.40'],
        reverseDns: 'a8-40.smtp-out.amazonses.com',
        provider: 'Amazon SES',
        providerMatchedBy: 'reverse-dns',
        coverage: {
          spf: 'not covered',
          dkim: 'not covered',
          spfRecord: { include: 'amazonses.com', includedBy: [], notIncludedBy: ['covered-brand.com'] },
          spfFix: expect.stringMatching(/^its return-path \(MAIL FROM\) is eu-west-1\.amazonses\.com/),
          dkimFix: expect.stringMatching(/^it signs with d=amazonses\.com, not covered-brand\.com/),
        },
      },
    ]);
    expect(sources[0].coverage).not.toHaveProperty('spfFix');
  });

  it('answers another user without the first one’s sources', async () => {
    const { client } = await signUp(env.t.app);
    expect((await client.get('/api/dmarc/analytics?domain=covered-brand.com')).json().sources).toEqual([]);
  });
});
