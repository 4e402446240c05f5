import { dayStart, utcDay } from '@contracts/utc-day';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dmarcReports, dmarcSourceDays } from '../platform/db/schema/index';
import { createTestAppWithDns, signUp, type TestApp } from '../test/test-app';
import { fixture } from './fixtures';
import { reportXml } from './report-xml.test-support';
import { uploadReport } from './upload-client.test-support';

/*
 * RFC 9990 (DMARCbis) aggregate reports stored and served beside RFC 7489 ones: the fields RFC 9990
 * adds reach the report list and detail, and its "pass" disposition is summed as delivered mail that
 * passed DMARC wherever dispositions and failures are summed.
 */

const DAY = 24 * 3600 * 1000;
const yesterday = dayStart(utcDay(Date.now() - DAY));
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** An RFC 9990 report from yesterday, shaped as the RFC's sample (appendix B), with the records given. */
function dmarcbisReport(reportId: string, records: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<feedback xmlns="urn:ietf:params:xml:ns:dmarc-2.0">
  <version>1.0</version>
  <report_metadata>
    <org_name>receiver.example</org_name>
    <email>dmarc-reports@receiver.example</email>
    <report_id>${reportId}</report_id>
    <date_range><begin>${unix(yesterday)}</begin><end>${unix(yesterday) + 86399}</end></date_range>
    <generator>Receiver DMARC Reporter 4.2</generator>
  </report_metadata>
  <policy_published>
    <domain>brand.example</domain>
    <p>reject</p>
    <sp>quarantine</sp>
    <np>reject</np>
    <adkim>r</adkim>
    <aspf>r</aspf>
    <discovery_method>treewalk</discovery_method>
    <testing>n</testing>
  </policy_published>
  ${records}
</feedback>`;
}

const passingRecord = `<record>
    <row>
      <source_ip>198.51.100.20</source_ip>
      <count>40</count>
      <policy_evaluated><disposition>pass</disposition><dkim>pass</dkim><spf>fail</spf></policy_evaluated>
    </row>
    <identifiers><envelope_from>bounce.brand.example</envelope_from><header_from>brand.example</header_from></identifiers>
    <auth_results>
      <dkim><domain>brand.example</domain><selector>s2025</selector><result>pass</result></dkim>
      <dkim><domain>esp.example</domain><result>fail</result><human_result lang="en">body hash did not verify</human_result></dkim>
      <spf><domain>bounce.brand.example</domain><scope>mfrom</scope><result>softfail</result><human_result>198.51.100.20 is not listed</human_result></spf>
    </auth_results>
  </record>`;

/** "pass" with the aligned results left out: the receiver still says these passed DMARC. */
const passWithoutResults = `<record>
    <row>
      <source_ip>198.51.100.21</source_ip>
      <count>7</count>
      <policy_evaluated><disposition>pass</disposition></policy_evaluated>
    </row>
    <identifiers><header_from>brand.example</header_from></identifiers>
    <auth_results><dkim><domain>brand.example</domain><selector>s2025</selector><result>pass</result></dkim></auth_results>
  </record>`;

const rejectedRecord = `<record>
    <row>
      <source_ip>203.0.113.66</source_ip>
      <count>3</count>
      <policy_evaluated><disposition>reject</disposition><dkim>fail</dkim><spf>fail</spf></policy_evaluated>
    </row>
    <identifiers><header_from>brand.example</header_from></identifiers>
    <auth_results><spf><domain>spoof.example</domain><result>fail</result></spf></auth_results>
  </record>`;

let t: TestApp;
let close: () => Promise<void>;
beforeAll(async () => ({ t, close } = await createTestAppWithDns()));
afterAll(() => close?.());

describe('RFC 9990 aggregate reports, stored and served', () => {
  it('RFC 9990 3.1.1.2, 3.1.1.3 and 3.1.1.5: version, generator, np, testing and discovery_method reach the report list and detail', async () => {
    const { client } = await signUp(t.app);
    const uploaded = (
      await uploadReport(t.app, client, fixture('aggregate/rfc9990-sample.xml'), { fileName: 'rfc9990.xml' })
    ).json();
    expect(uploaded.reports[0]).toMatchObject({
      schema: 'rfc9990',
      version: '1.0',
      generator: 'Example DMARC Aggregate Reporter v1.2',
      policyPublished: { p: 'quarantine', sp: 'none', np: 'none', testing: 'n', discoveryMethod: 'treewalk' },
    });
    const list = (await client.get('/api/dmarc/reports')).json();
    expect(list.items[0]).toMatchObject({
      schema: 'rfc9990',
      version: '1.0',
      generator: 'Example DMARC Aggregate Reporter v1.2',
    });
    const detail = (await client.get(`/api/dmarc/reports/${uploaded.reports[0].id}`)).json();
    expect(detail).toMatchObject({ schema: 'rfc9990', policyPublished: { discoveryMethod: 'treewalk' } });
  });

  it('RFC 9990 3.1.1.12 and 3.1.1.13: the DKIM selector and the human_result of DKIM and SPF reach the report detail', async () => {
    const { client } = await signUp(t.app);
    const { reports } = (
      await uploadReport(t.app, client, dmarcbisReport('human-1', passingRecord), { fileName: 'human.xml' })
    ).json();
    const detail = (await client.get(`/api/dmarc/reports/${reports[0].id}`)).json();
    expect(detail.records[0]).toMatchObject({
      disposition: 'pass',
      dkimAuth: [
        { domain: 'brand.example', selector: 's2025', result: 'pass', humanResult: null },
        { domain: 'esp.example', selector: null, result: 'fail', humanResult: 'body hash did not verify' },
      ],
      spfAuth: [
        {
          domain: 'bounce.brand.example',
          scope: 'mfrom',
          result: 'softfail',
          humanResult: '198.51.100.20 is not listed',
        },
      ],
    });
  });

  it('RFC 9990 3.1.1.9: a "pass" disposition is summed as delivered mail that passed DMARC, never as a failure', async () => {
    const { client, user } = await signUp(t.app);
    const xml = dmarcbisReport('pass-1', [passingRecord, passWithoutResults, rejectedRecord].join('\n'));
    const { reports } = (await uploadReport(t.app, client, xml, { fileName: 'pass.xml' })).json();
    expect(reports[0]).toMatchObject({ messageCount: 50, passCount: 47, compliance: 94 });

    const days = await t.database.db
      .select({
        sourceIp: dmarcSourceDays.sourceIp,
        disposition: dmarcSourceDays.disposition,
        total: dmarcSourceDays.total,
        failed: dmarcSourceDays.failed,
      })
      .from(dmarcSourceDays)
      .where(eq(dmarcSourceDays.userId, user.id))
      .orderBy(dmarcSourceDays.sourceIp);
    expect(days).toEqual([
      { sourceIp: '198.51.100.20', disposition: 'pass', total: 40, failed: 0 },
      { sourceIp: '198.51.100.21', disposition: 'pass', total: 7, failed: 0 },
      { sourceIp: '203.0.113.66', disposition: 'reject', total: 3, failed: 3 },
    ]);

    const analytics = (await client.get('/api/dmarc/analytics?domain=brand.example&days=7')).json();
    expect(analytics).toMatchObject({ totalMessages: 50, averageCompliance: 94 });
    expect(
      analytics.sources.map((s: { ips: string[]; dispositions: object; failed: number }) => [
        s.ips,
        s.dispositions,
        s.failed,
      ]),
    ).toEqual([
      [['198.51.100.20'], { pass: 40 }, 0],
      [['198.51.100.21'], { pass: 7 }, 0],
      [['203.0.113.66'], { reject: 3 }, 3],
    ]);
    expect(analytics.topThreats.map((threat: { sourceIPs: string[] }) => threat.sourceIPs)).toEqual([['203.0.113.66']]);
  });

  it('RFC 7489 and RFC 9990 reports side by side: each keeps what its schema says, and the older one has no RFC 9990 fields', async () => {
    const { client, user } = await signUp(t.app);
    const old = reportXml({
      orgName: 'legacy.example',
      reportId: 'legacy-1',
      domain: 'brand.example',
      begin: yesterday,
      records: [],
    }).replace('<feedback>', '<feedback>\n  <version>1.0</version>');
    await uploadReport(t.app, client, old, { fileName: 'legacy.xml' });
    await uploadReport(t.app, client, dmarcbisReport('bis-1', passingRecord), { fileName: 'bis.xml' });
    const rows = await t.database.db
      .select({
        orgName: dmarcReports.orgName,
        schema: dmarcReports.schema,
        version: dmarcReports.version,
        generator: dmarcReports.generator,
        discoveryMethod: dmarcReports.discoveryMethod,
        pct: dmarcReports.pct,
      })
      .from(dmarcReports)
      .where(and(eq(dmarcReports.userId, user.id), eq(dmarcReports.status, 'imported')))
      .orderBy(dmarcReports.orgName);
    expect(rows).toEqual([
      {
        orgName: 'legacy.example',
        schema: 'rfc7489',
        version: '1.0',
        generator: null,
        discoveryMethod: null,
        pct: 100,
      },
      {
        orgName: 'receiver.example',
        schema: 'rfc9990',
        version: '1.0',
        generator: 'Receiver DMARC Reporter 4.2',
        discoveryMethod: 'treewalk',
        pct: null,
      },
    ]);
  });
});
