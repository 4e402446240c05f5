// The DMARC aggregate reports bench:hostile sends: generated before anything is measured.
import { gzipSync } from 'node:zlib';

/** The reporting organisation of the bench's reports (its DKIM key is in the bench's DNS zone). */
export const REPORTER = 'reporter.bench.test';
const DAY_MS = 24 * 3600 * 1000;

export interface ReportFile {
  reportId: string;
  domain: string;
  records: number;
  xmlBytes: number;
  gzip: Buffer;
  fileName: string;
}

export const unix = (ms: number) => Math.floor(ms / 1000);

/** The i-th distinct source IP: 10.a.b.c, so up to 16.7 million records. */
const sourceIp = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/**
 * A DMARC aggregate report (RFC 7489 appendix C) of `records` records, one per source IP, with a mix
 * of results, written without indentation (as large reporters do) and gzipped. About 340 bytes a
 * record: 130,000 records are 44 MB of XML, under the server's 50 MB limit on what an upload may
 * expand to (server/dmarc/unpack.ts), as the report of issue 11 was.
 */
export function aggregateReport(
  domain: string,
  reportId: string,
  records: number,
  beginMs: number,
  reporter = REPORTER,
): ReportFile {
  const parts: string[] = [
    `<?xml version="1.0" encoding="UTF-8"?>\n<feedback><report_metadata><org_name>${reporter}</org_name><email>noreply-dmarc@${reporter}</email>` +
      `<report_id>${reportId}</report_id><date_range><begin>${unix(beginMs)}</begin><end>${unix(beginMs + DAY_MS) - 1}</end></date_range></report_metadata>` +
      `<policy_published><domain>${domain}</domain><adkim>r</adkim><aspf>r</aspf><p>none</p><sp>none</sp><pct>100</pct></policy_published>\n`,
  ];
  for (let i = 0; i < records; i++) {
    const dkim = i % 3 === 0 ? 'pass' : 'fail';
    const spf = i % 5 === 0 ? 'fail' : 'pass';
    parts.push(
      `<record><row><source_ip>${sourceIp(i)}</source_ip><count>${1 + (i % 7)}</count><policy_evaluated><disposition>none</disposition>` +
        `<dkim>${dkim}</dkim><spf>${spf}</spf></policy_evaluated></row><identifiers><header_from>${domain}</header_from></identifiers>` +
        `<auth_results>${dkim === 'pass' ? `<dkim><domain>${domain}</domain><result>pass</result></dkim>` : ''}<spf><domain>${domain}</domain><result>${spf}</result></spf></auth_results></record>\n`,
    );
  }
  parts.push('</feedback>\n');
  const xml = Buffer.from(parts.join(''));
  return {
    reportId,
    domain,
    records,
    xmlBytes: xml.length,
    gzip: gzipSync(xml),
    fileName: `${reporter}!${domain}!${unix(beginMs)}!${unix(beginMs + DAY_MS) - 1}.xml.gz`,
  };
}
