/** Hand-made aggregate reports for tests and benchmarks (RFC 7489 schema). */
export interface TestRecord {
  ip: string;
  count: number;
  disposition?: string;
  dkim: 'pass' | 'fail';
  spf: 'pass' | 'fail';
  /** Raw auth results: domain and result; none when left out. */
  dkimAuth?: { domain: string; result: string }[];
  spfAuth?: { domain: string; result: string }[];
  headerFrom?: string;
}

export interface TestReport {
  orgName: string;
  reportId: string;
  domain: string;
  p?: string;
  pct?: number;
  begin: Date;
  /** Defaults to a day after begin. */
  end?: Date;
  records: TestRecord[];
}

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

export function reportXml(report: TestReport): string {
  const end = report.end ?? new Date(report.begin.getTime() + 24 * 3600 * 1000 - 1000);
  const records = report.records
    .map(
      (r) => `  <record>
    <row>
      <source_ip>${r.ip}</source_ip>
      <count>${r.count}</count>
      <policy_evaluated><disposition>${r.disposition ?? 'none'}</disposition><dkim>${r.dkim}</dkim><spf>${r.spf}</spf></policy_evaluated>
    </row>
    <identifiers><header_from>${r.headerFrom ?? report.domain}</header_from></identifiers>
    <auth_results>
${(r.dkimAuth ?? []).map((a) => `      <dkim><domain>${a.domain}</domain><result>${a.result}</result></dkim>`).join('\n')}
${(r.spfAuth ?? []).map((a) => `      <spf><domain>${a.domain}</domain><result>${a.result}</result></spf>`).join('\n')}
    </auth_results>
  </record>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<feedback>
  <report_metadata>
    <org_name>${report.orgName}</org_name>
    <email>noreply-dmarc@${report.orgName}</email>
    <report_id>${report.reportId}</report_id>
    <date_range><begin>${unix(report.begin)}</begin><end>${unix(end)}</end></date_range>
  </report_metadata>
  <policy_published>
    <domain>${report.domain}</domain>
    <adkim>r</adkim>
    <aspf>r</aspf>
    <p>${report.p ?? 'none'}</p>
    <pct>${report.pct ?? 100}</pct>
  </policy_published>
${records}
</feedback>
`;
}
