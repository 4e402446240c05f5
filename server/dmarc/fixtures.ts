import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Real-world reports kept in the repository (report-fixtures/README.md says where they come from). */
export const DMARC_FIXTURES = fileURLToPath(new URL('./report-fixtures', import.meta.url));

export function fixture(relative: string): Buffer {
  return readFileSync(path.join(DMARC_FIXTURES, relative));
}

export function fixtureNames(folder: string): string[] {
  return readdirSync(path.join(DMARC_FIXTURES, folder)).sort();
}

export const LARGE_REPORT = 'aggregate/!large-example.com!1711897200!1711983600.xml';

/** A real report cut short, as a truncated attachment arrives: past recovery, so its import fails. */
export const truncatedReport = () =>
  fixture('aggregate/veeam.com!example.com!1530133200!1530219600.xml').subarray(0, 400);

/**
 * Every aggregate fixture with what it holds, counted from the files by hand (grep -c '<record>'
 * and the sum of <count>). Tests assert every file here is listed, so a new fixture cannot slip by.
 */
export const AGGREGATE_FIXTURES: Record<
  string,
  { orgName: string; reportId: string; domain: string; records: number; messages: number; passed: number }
> = {
  '!example.com!1538204542!1538463818.xml': {
    orgName: 'accurateplastics.com',
    reportId: 'example.com:1538463741',
    domain: 'example.com',
    records: 1,
    messages: 1,
    passed: 0,
  },
  '!large-example.com!1711897200!1711983600.xml': {
    orgName: 'accurateplastics.com',
    reportId: 'example.com:1711897200',
    domain: 'example.com',
    records: 2286,
    messages: 2286,
    passed: 0,
  },
  'addisonfoods.com!example.com!1536105600!1536191999.xml': {
    orgName: 'addisonfoods.com',
    reportId: '3ceb5548498640beaeb47327e202b0b9',
    domain: 'example.com',
    records: 1,
    messages: 1,
    passed: 0,
  },
  'empty_reason.xml': {
    orgName: 'example.org',
    reportId: '20240125141224705995',
    domain: 'example.com',
    records: 1,
    messages: 2,
    passed: 2,
  },
  'estadocuenta1.infonacot.gob.mx!example.com!1536853302!1536939702!2940.xml.zip': {
    orgName: 'XYZ Corporation',
    reportId: '2940',
    domain: 'example.com',
    records: 1,
    messages: 1,
    passed: 0,
  },
  'example.net!example.com!1529366400!1529452799.xml': {
    orgName: 'example.net',
    reportId: 'b043f0e264cf4ea995e93765242f6dfb',
    domain: 'example.com',
    records: 1,
    messages: 1,
    passed: 0,
  },
  'fastmail.com!example.com!1516060800!1516147199!102675056.xml.gz': {
    orgName: 'FastMail Pty Ltd',
    reportId: '102675056',
    domain: 'indemed.com',
    records: 1,
    messages: 1,
    passed: 0,
  },
  'ikea.com!example.de!1538690400!1538776800.xml': {
    orgName: 'ikea.com',
    reportId: 'aggr_report_2018_10_05_5bc7e9b4f3e8a',
    domain: 'example.de',
    records: 1,
    messages: 1,
    passed: 0,
  },
  'old_draft_from_wiki.xml': {
    orgName: 'acme.com',
    reportId: '9391651994964116463',
    domain: 'example.com',
    records: 1,
    messages: 2,
    passed: 2,
  },
  'rfc9990-sample.xml': {
    orgName: 'Sample Reporter',
    reportId: '3v98abbp8ya9n3va8yr8oa3ya',
    domain: 'example.com',
    records: 1,
    messages: 123,
    passed: 123,
  },
  'usssa.com!example.com!1538784000!1538870399.xml': {
    orgName: 'usssa.com',
    reportId: '8953b4d4a4ee4218b6ac0e2cb2667ee1',
    domain: 'example.com',
    records: 2,
    messages: 2,
    passed: 0,
  },
  'veeam.com!example.com!1530133200!1530219600.xml': {
    orgName: 'veeam.com',
    reportId: 'sonexushealth.com:1530233361',
    domain: 'example.com',
    records: 1,
    messages: 1,
    passed: 0,
  },
};

/** The invalid/ folder: the error each file gives, or null for the one that is tolerated. */
export const INVALID_FIXTURES: Record<string, RegExp | null> = {
  'empty.xml': /^The file is empty\.$/,
  'report_with_upper_cased_pass.xml': null,
};

/**
 * The recovered/ folder: reports that are not well-formed, read as parsedmarc reads them (ADR 017), with the
 * warning the report keeps and what its one record reads as.
 */
export const RECOVERED_FIXTURES: Record<
  string,
  { reportId: string; email: string; warning: string; record: { sourceIp: string; headerFrom: string } }
> = {
  // A windows-1252 quote (0x91) in a file that says it is UTF-8.
  'invalid_utf_8.xml': {
    reportId: 'example.com:1538463741',
    email: 'administrator@accurateplastics.com',
    warning:
      'The file is not valid UTF-8 text (the first bad byte is on line 31): bad bytes were read as "\uFFFD", so names with them may not be as the reporter wrote them.',
    record: { sourceIp: '12.20.127.122', headerFrom: 'bad_byte\uFFFD' },
  },
  // <email><bad-xml@bad-xml.net></email> and <header_from>bad<xml.net</header_from>.
  'invalid_xml.xml': {
    reportId: 'sonexushealth.com:1530233361',
    email: '<bad-xml@bad-xml.net>',
    warning:
      'The file is not valid XML: 2 "<" written in text without escaping (the first on line 5) were read as text.',
    record: { sourceIp: '199.230.200.36', headerFrom: 'bad<xml.net' },
  },
};
