import { daysAgo, utcDay } from '@contracts/utc-day';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadReport } from '../dmarc/upload-client.test-support';
import { reportXml } from '../dmarc/report-xml.test-support';
import type { TestDnsServer } from '../test/dns-server';
import { createTestAppWithDns, signUp, type TestApp } from '../test/test-app';

let t: TestApp;
let dns: TestDnsServer;
let close: () => Promise<void>;
beforeAll(async () => ({ t, dns, close } = await createTestAppWithDns()));
afterAll(() => close?.());

const yesterday = () => daysAgo(1);
const unix = (d: Date) => Math.floor(d.getTime() / 1000);
const suggested = async (client: { get(url: string): Promise<{ json(): unknown }> }) =>
  ((await client.get('/api/ip-addresses/suggestions')).json() as { ipAddress: string }[]).map((s) => s.ipAddress);

function publishPtr(reversed: string, name: string) {
  dns.zone[reversed] = { PTR: [name] };
}

/**
 * A record of brand-two.com's mail as Google's aggregate reports lay it out (DKIM passing with the selector
 * given, SPF as given); a forwarded one carries Google's reason.
 */
function googleRecord(r: { ip: string; count: number; spf: 'pass' | 'fail'; selector: string; forwarded?: boolean }) {
  const reason = r.forwarded
    ? `
        <reason>
          <type>forwarded</type>
          <comment></comment>
        </reason>`
    : '';
  return `  <record>
    <row>
      <source_ip>${r.ip}</source_ip>
      <count>${r.count}</count>
      <policy_evaluated>
        <disposition>none</disposition>
        <dkim>pass</dkim>
        <spf>${r.spf}</spf>${reason}
      </policy_evaluated>
    </row>
    <identifiers>
      <header_from>brand-two.com</header_from>
    </identifiers>
    <auth_results>
      <dkim>
        <domain>brand-two.com</domain>
        <result>pass</result>
        <selector>${r.selector}</selector>
      </dkim>
      <spf>
        <domain>brand-two.com</domain>
        <result>${r.spf}</result>
      </spf>
    </auth_results>
  </record>`;
}

describe('suggestions from DMARC reports', () => {
  it('suggests public sources of the user own domains that pass DMARC, not yet monitored, busiest first', async () => {
    const { client } = await signUp(t.app);
    await client.post('/api/domains', { domain: 'brand-one.com' });
    const report = reportXml({
      orgName: 'yahoo.com',
      reportId: `suggest-${Date.now()}`,
      domain: 'brand-one.com',
      begin: yesterday(),
      records: [
        { ip: '93.184.215.20', count: 50, dkim: 'pass', spf: 'pass' },
        { ip: '2A01:4F8:C17:1:0:0:0:52A', count: 10, dkim: 'pass', spf: 'fail' },
        { ip: '198.51.100.9', count: 80, dkim: 'pass', spf: 'pass' },
        { ip: '185.12.13.14', count: 30, dkim: 'fail', spf: 'fail' },
        { ip: '8.8.8.8', count: 5, dkim: 'pass', spf: 'pass' },
      ],
    });
    expect((await uploadReport(t.app, client, report, { fileName: 'yahoo.xml' })).json()).toMatchObject({
      imported: 1,
    });
    const elsewhere = reportXml({
      orgName: 'yahoo.com',
      reportId: `not-mine-${Date.now()}`,
      domain: 'not-mine.com',
      begin: yesterday(),
      records: [{ ip: '1.1.1.1', count: 500, dkim: 'pass', spf: 'pass' }],
    });
    const old = reportXml({
      orgName: 'yahoo.com',
      reportId: `old-${Date.now()}`,
      domain: 'brand-one.com',
      begin: daysAgo(40),
      records: [{ ip: '9.9.9.9', count: 500, dkim: 'pass', spf: 'pass' }],
    });
    await uploadReport(t.app, client, elsewhere, { fileName: 'elsewhere.xml' });
    await uploadReport(t.app, client, old, { fileName: 'old.xml' });
    await client.post('/api/ip-addresses', { ipAddress: '8.8.8.8' });

    const res = await client.get('/api/ip-addresses/suggestions');
    expect(res.statusCode, res.body).toBe(200);
    const day = utcDay(yesterday());
    expect(res.json()).toEqual([
      { ipAddress: '93.184.215.20', domains: ['brand-one.com'], messages: 50, passed: 50, lastSeen: day },
      { ipAddress: '2a01:4f8:c17:1::52a', domains: ['brand-one.com'], messages: 10, passed: 10, lastSeen: day },
    ]);
    // One click: the suggestion added as a dedicated IP is no longer suggested.
    await client.post('/api/ip-addresses', { ipAddress: '2a01:4f8:c17:1::52a', type: 'dedicated' });
    expect(await suggested(client)).toEqual(['93.184.215.20']);
    const stranger = await signUp(t.app);
    expect(await suggested(stranger.client)).toEqual([]);
  });

  it("leaves out a forwarder (a row Google reports with reason forwarded) and a mailbox provider's own servers", async () => {
    const { client } = await signUp(t.app);
    await client.post('/api/domains', { domain: 'brand-two.com' });
    const begin = yesterday();
    // An aggregate report as Google sends it (RFC 7489 appendix C schema; metadata as in Google's
    // reports): a message of brand-two.com forwarded by a Gmail user, so it arrives from Google's
    // 209.85.220.41 with the DKIM signature intact and SPF failing, and Google marks it forwarded.
    const google = `<?xml version="1.0" encoding="UTF-8" ?>
<feedback>
  <report_metadata>
    <org_name>google.com</org_name>
    <email>noreply-dmarc-support@google.com</email>
    <extra_contact_info>https://support.google.com/a/answer/2466580</extra_contact_info>
    <report_id>${Date.now()}1734019200</report_id>
    <date_range>
      <begin>${unix(begin)}</begin>
      <end>${unix(begin) + 86_399}</end>
    </date_range>
  </report_metadata>
  <policy_published>
    <domain>brand-two.com</domain>
    <adkim>r</adkim>
    <aspf>r</aspf>
    <p>quarantine</p>
    <sp>quarantine</sp>
    <pct>100</pct>
    <np>quarantine</np>
  </policy_published>
${googleRecord({ ip: '209.85.220.41', count: 12, spf: 'fail', forwarded: true, selector: 'mail' })}
${googleRecord({ ip: '2a00:1450:4864:20::52a', count: 40, spf: 'pass', selector: 'google' })}
${googleRecord({ ip: '93.184.215.30', count: 300, spf: 'pass', selector: 'mail' })}
</feedback>
`;
    // Google's outbound IPv6 server names itself under google.com; the user's own MTA under their domain.
    publishPtr('a.2.5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.2.0.0.4.6.8.4.0.5.4.1.0.0.a.2.ip6.arpa', 'mail-ej1-x52a.google.com');
    publishPtr('30.215.184.93.in-addr.arpa', 'mta1.brand-two.com');
    const upload = await uploadReport(t.app, client, google, { fileName: 'google.com!brand-two.com.xml' });
    expect(upload.json()).toMatchObject({ imported: 1 });

    expect(await suggested(client)).toEqual(['93.184.215.30']);
  });
});
