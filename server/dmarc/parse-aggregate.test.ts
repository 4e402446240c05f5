import { describe, expect, it } from 'vitest';
import { passesDmarc } from './aggregate-report';
import {
  AGGREGATE_FIXTURES,
  fixture,
  fixtureNames,
  INVALID_FIXTURES,
  LARGE_REPORT,
  RECOVERED_FIXTURES,
} from './fixtures';
import type { AggregateRecord } from './aggregate-report';
import {
  MAX_FIELD_CHARS,
  MAX_RECORDS_BEFORE_HEADER,
  parseAggregateReport,
  readReportHeader,
  RECORD_BATCH,
  streamAggregateReport,
  type ReportHeader,
} from './parse-aggregate';
import { reportXml } from './report-xml.test-support';
import { StrayCharacters } from './stray-characters';

function parseOk(input: Uint8Array | string) {
  const result = parseAggregateReport(input);
  if (!result.ok) throw new Error(`expected a report, got: ${result.error}`);
  return result.report;
}

const plainXml = fixtureNames('aggregate').filter((name) => name.endsWith('.xml'));

describe('parseAggregateReport on the real-world fixtures', () => {
  it.each(plainXml)('%s parses with its record and message counts', (name) => {
    const expected = AGGREGATE_FIXTURES[name];
    const report = parseOk(fixture(`aggregate/${name}`));
    expect(report).toMatchObject({
      orgName: expected.orgName,
      reportId: expected.reportId,
      policy: { domain: expected.domain },
    });
    expect(report.records).toHaveLength(expected.records);
    expect(report.records.reduce((sum, r) => sum + r.count, 0)).toBe(expected.messages);
    expect(report.records.filter(passesDmarc).reduce((sum, r) => sum + r.count, 0)).toBe(expected.passed);
  });

  it('knows every aggregate fixture', () => {
    expect(fixtureNames('aggregate').sort()).toEqual(Object.keys(AGGREGATE_FIXTURES).sort());
    expect(fixtureNames('invalid').sort()).toEqual(Object.keys(INVALID_FIXTURES).sort());
    expect(fixtureNames('recovered').sort()).toEqual(Object.keys(RECOVERED_FIXTURES).sort());
  });

  it('reads the RFC 9990 (DMARCbis) schema: namespace, np, testing, no pct', () => {
    const report = parseOk(fixture('aggregate/rfc9990-sample.xml'));
    expect(report.schema).toBe('rfc9990');
    expect(report.policy).toEqual({
      domain: 'example.com',
      adkim: null,
      aspf: null,
      p: 'quarantine',
      sp: 'none',
      np: 'none',
      pct: null,
      fo: null,
      testing: 'n',
      discoveryMethod: 'treewalk',
    });
    expect(report.records[0]).toMatchObject({
      sourceIp: '192.0.2.123',
      count: 123,
      disposition: 'pass',
      dkimResult: 'pass',
      spfResult: 'fail',
    });
    expect(report.records[0].dkimAuth).toEqual([
      { domain: 'example.com', selector: 'abc123', result: 'pass', humanResult: null },
    ]);
    expect(report.dateBegin.toISOString()).toBe('1979-08-07T00:00:00.000Z');
  });

  it('reads the 2012 schema and the older draft', () => {
    const draft = parseOk(fixture('aggregate/old_draft_from_wiki.xml'));
    expect(draft.schema).toBe('rfc7489');
    expect(draft.records[0]).toMatchObject({
      sourceIp: '72.150.241.94',
      count: 2,
      dkimResult: 'fail',
      spfResult: 'pass',
      headerFrom: 'example.com',
    });
    expect(draft.records[0].spfAuth).toEqual([
      { domain: 'example.com', scope: null, result: 'pass', humanResult: null },
    ]);
    const fastmailLike = parseOk(fixture('aggregate/empty_reason.xml'));
    expect(fastmailLike.records[0]).toMatchObject({
      envelopeTo: 'example.net',
      envelopeFrom: 'example.edu',
      reason: null,
    });
    expect(fastmailLike.policy).toMatchObject({ p: 'quarantine', sp: 'quarantine', pct: 100, fo: '1' });
  });

  it('falls back to the e-mail domain when org_name is empty, and tolerates junk around <feedback>', () => {
    expect(parseOk(fixture('aggregate/!example.com!1538204542!1538463818.xml')).orgName).toBe('accurateplastics.com');
    expect(parseOk(fixture('aggregate/ikea.com!example.de!1538690400!1538776800.xml')).reportId).toBe(
      'aggr_report_2018_10_05_5bc7e9b4f3e8a',
    );
  });

  it.each(Object.entries(INVALID_FIXTURES))('invalid/%s gives its clear error (or is tolerated)', (name, error) => {
    const result = parseAggregateReport(fixture(`invalid/${name}`));
    if (error === null) {
      expect(result.ok).toBe(true);
      return;
    }
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });

  // parsedmarc's samples/aggregate/invalid_utf_8.xml and invalid_xml.xml (report-fixtures/README.md): parsedmarc
  // decodes with errors replaced and re-reads broken XML in lxml's recover mode; each is read here, and says so.
  it.each(Object.entries(RECOVERED_FIXTURES))(
    'recovered/%s is read, with a warning saying what was recovered',
    (name, expected) => {
      const result = parseAggregateReport(fixture(`recovered/${name}`));
      expect(result).toMatchObject({
        ok: true,
        report: { reportId: expected.reportId, email: expected.email, records: [expected.record] },
        warnings: [expected.warning],
      });
    },
  );

  it('recovers bad UTF-8 wherever the pieces of the text are cut, and says nothing when the bytes are good', () => {
    const xml = reportXml({ ...base, records: [{ ip: '192.0.2.1', count: 1, dkim: 'pass', spf: 'pass' }] });
    const [head, tail] = xml.split('<org_name>x.org');
    // "é" (c3 a9) cut by a piece boundary must stay "é"; the lone 0xe9 (latin-1 "é") later is the bad byte.
    const pad = ' '.repeat(64 * 1024 - Buffer.byteLength(head) - '<org_name>'.length - 1);
    const bytes = Buffer.concat([
      Buffer.from(`${head}${pad}<org_name>\u00e9x`),
      Buffer.from('\n<!-- caf'),
      Buffer.from([0xe9]),
      Buffer.from(` -->${tail}`),
    ]);
    expect(bytes[64 * 1024 - 1]).toBe(0xc3);
    const result = parseAggregateReport(bytes);
    expect(result).toMatchObject({
      ok: true,
      report: { orgName: '\u00e9x' },
      warnings: [expect.stringMatching(/^The file is not valid UTF-8 text \(the first bad byte is on line 5\)/)],
    });
    expect(parseAggregateReport(xml)).not.toHaveProperty('warnings');
  });

  it('reads upper-cased results as lower case, so they count as passes', () => {
    const report = parseOk(fixture('invalid/report_with_upper_cased_pass.xml'));
    expect(report.orgName).toBe('example.com');
    expect(report.records[0]).toMatchObject({ disposition: 'none', dkimResult: 'pass', spfResult: 'pass' });
    expect(report.records[0].dkimAuth[0].result).toBe('pass');
    expect(passesDmarc(report.records[0])).toBe(true);
  });
});

describe('parseAggregateReport on hostile and odd input', () => {
  it('refuses a billion-laughs document at once, without expanding anything', () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const bomb = `<?xml version="1.0"?><!DOCTYPE feedback [<!ENTITY lol0 "lol">${levels}]><feedback><report_metadata><org_name>&lol9;</org_name></report_metadata></feedback>`;
    const started = performance.now();
    const result = parseAggregateReport(bomb);
    // Expanding it would take minutes and gigabytes: a bound far below that shows nothing was expanded,
    // and far above a busy machine's pauses.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/DOCTYPE or ENTITY declaration/) });
  });

  it('refuses an external entity too', () => {
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE feedback [<!ENTITY x SYSTEM "file:///etc/passwd">]><feedback>&x;</feedback>';
    expect(parseAggregateReport(xxe)).toMatchObject({ ok: false, error: expect.stringMatching(/DOCTYPE/) });
  });

  it('keeps the predefined entities: AT&amp;T is AT&T', () => {
    const xml = reportXml({
      orgName: 'AT&amp;T',
      reportId: 'r1',
      domain: 'example.com',
      begin: new Date('2024-01-01T00:00:00Z'),
      records: [],
    });
    expect(parseOk(xml).orgName).toBe('AT&T');
  });

  it('says what is wrong with a report that is XML but not right', () => {
    const base = { orgName: 'x.org', reportId: 'r1', domain: 'example.com', begin: new Date('2024-01-01T00:00:00Z') };
    const badIp = reportXml({ ...base, records: [{ ip: '999.1.1.1', count: 1, dkim: 'pass', spf: 'pass' }] });
    expect(parseAggregateReport(badIp)).toEqual({
      ok: false,
      error: 'Record 1: "999.1.1.1" is not an IP address (row/source_ip).',
    });
    const badCount = reportXml({
      ...base,
      records: [{ ip: '192.0.2.1', count: 1, dkim: 'pass', spf: 'pass' }],
    }).replace('<count>1</count>', '<count>many</count>');
    expect(parseAggregateReport(badCount)).toEqual({
      ok: false,
      error: 'Record 1: the message count "many" is not a whole number (row/count).',
    });
    const hugeId = reportXml({ ...base, records: [] }).replace(
      '<report_id>r1</report_id>',
      `<report_id>${'9'.repeat(MAX_FIELD_CHARS + 1)}</report_id>`,
    );
    expect(parseAggregateReport(hugeId)).toEqual({
      ok: false,
      error: "The report's report_id (report_metadata/report_id) is longer than 1,024 characters.",
    });
    const hugeHuman = reportXml({
      ...base,
      records: [{ ip: '192.0.2.1', count: 1, dkim: 'pass', spf: 'pass' }],
    }).replace('</header_from>', `${'h'.repeat(MAX_FIELD_CHARS + 1)}</header_from>`);
    expect(parseAggregateReport(hugeHuman)).toEqual({
      ok: false,
      error: 'Record 1: a value is longer than 1,024 characters.',
    });
    const noId = reportXml({ ...base, records: [] }).replace('<report_id>r1</report_id>', '');
    expect(parseAggregateReport(noId)).toEqual({
      ok: false,
      error: 'The report has no report_id (report_metadata/report_id).',
    });
    expect(parseAggregateReport('<html><body>hi</body></html>')).toEqual({
      ok: false,
      error: 'The file is XML but not a DMARC aggregate report: it has no <feedback> element.',
    });
    expect(parseAggregateReport('not xml at all')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^The file is not valid XML: /),
    });
    expect(parseAggregateReport('<feedback><report_metadata>')).toMatchObject({
      ok: false,
      error: 'The file is not valid XML: it ends before <report_metadata> is closed (line 1, column 27).',
    });
  });

  it('reads single and repeated elements alike, and a declared latin-1 encoding', () => {
    const xml = reportXml({
      orgName: 'Réseau',
      reportId: 'r2',
      domain: 'example.com',
      begin: new Date('2024-01-01T00:00:00Z'),
      records: [
        {
          ip: '2001:db8::1',
          count: 3,
          dkim: 'pass',
          spf: 'fail',
          dkimAuth: [
            { domain: 'example.com', result: 'pass' },
            { domain: 'esp.example', result: 'pass' },
          ],
        },
        { ip: '192.0.2.1', count: 4, dkim: 'fail', spf: 'fail' },
      ],
    }).replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    const report = parseOk(Buffer.from(xml, 'latin1'));
    expect(report.orgName).toBe('Réseau');
    expect(report.records.map((r) => [r.sourceIp, r.count, r.dkimAuth.length, r.spfAuth.length])).toEqual([
      ['2001:db8::1', 3, 2, 0],
      ['192.0.2.1', 4, 0, 0],
    ]);
  });
});

const base = { orgName: 'x.org', reportId: 'r1', domain: 'example.com', begin: new Date('2024-01-01T00:00:00Z') };

/** The smallest record that parses: what a hostile report repeats. */
const tinyRecord = (i: number) =>
  `<record><row><source_ip>10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}</source_ip><count>1</count><policy_evaluated><disposition>none</disposition></policy_evaluated></row></record>`;

/** A report of `count` tiny records, with `after` written after the last one. */
function manyRecords(count: number, after = ''): string {
  const [head, tail] = reportXml({ ...base, records: [] }).split('</feedback>');
  return `${head}${Array.from({ length: count }, (_, i) => tinyRecord(i)).join('\n')}${after}</feedback>${tail}`;
}

describe('parseAggregateReport reads as a stream', () => {
  it('hands a report of any size on in batches, header first, in order, and undoes nothing itself when it fails late', async () => {
    const records = 60_000;
    const seen: { header?: string; batches: number[]; ips: string[] } = { batches: [], ips: [] };
    const sink = {
      header: async (header: ReportHeader) => ((seen.header = header.reportId), seen.batches.length === 0),
      records: async (batch: AggregateRecord[]) => {
        seen.batches.push(batch.length);
        seen.ips.push(batch[0].sourceIp);
      },
    };
    const xml = manyRecords(records);
    expect(await streamAggregateReport(Buffer.from(xml), sink)).toMatchObject({ ok: true, wanted: true });
    expect(seen.header).toBe('r1');
    expect(seen.batches.reduce((a, b) => a + b, 0)).toBe(records);
    expect(Math.max(...seen.batches)).toBeLessThanOrEqual(RECORD_BATCH + 1_000); // a batch, and what one piece of text held over it
    expect(seen.ips[1]).toBe(`10.0.${(seen.batches[0] >> 8) & 255}.${seen.batches[0] & 255}`);

    // Broken far into the text: the sentence counts lines and columns in the whole text, as for a small one.
    const broken = manyRecords(records, '<record><row><source_ip></row>');
    // saxes stops at the end of the close tag that closes nothing open.
    const at = broken.lastIndexOf('</row></feedback>') + '</row'.length;
    const line = broken.slice(0, at).split('\n').length;
    const column = at - broken.lastIndexOf('\n', at - 1);
    seen.batches = [];
    expect(await streamAggregateReport(broken, sink)).toEqual({
      ok: false,
      error: `The file is not valid XML: unexpected close tag at "…w></record><record><row><source_ip></row></feedback>" (line ${line}, column ${column}).`,
    });
    expect(seen.batches.length).toBeGreaterThan(10);
    // Written on one line, as large reporters write: the column counts from the start of the file.
    const oneLine = broken.replaceAll('</record>\n', '</record>');
    const far = oneLine.lastIndexOf('</row></feedback>') + '</row'.length;
    expect(parseAggregateReport(oneLine)).toMatchObject({
      ok: false,
      error: expect.stringContaining(
        `(line ${oneLine.slice(0, far).split('\n').length}, column ${far - oneLine.lastIndexOf('\n', far - 1)}).`,
      ),
    });
  });

  it('turns nothing over to a sink that does not want the report, and refuses a report whose header comes after 50,000 records', async () => {
    let handed = 0;
    const refuse = { header: async () => false, records: async () => void handed++ };
    expect(await streamAggregateReport(manyRecords(20_000), refuse)).toMatchObject({ ok: true, wanted: false });
    expect(handed).toBe(0);
    const [head, rest] = manyRecords(MAX_RECORDS_BEFORE_HEADER + 2_000).split('<report_metadata>');
    const [metadata, records] = rest.split('</policy_published>');
    const late = `${head}${records.replace('</feedback>', `<report_metadata>${metadata}</policy_published></feedback>`)}`;
    expect(await streamAggregateReport(late, { header: async () => true, records: async () => {} })).toEqual({
      ok: false,
      error:
        'The report has more than 50,000 records before its <report_metadata> and <policy_published>, which every DMARC schema puts first.',
    });
  });

  it('stops at </feedback>: junk before and after it is not read', () => {
    const xml = reportXml({ ...base, records: [{ ip: '192.0.2.1', count: 2, dkim: 'pass', spf: 'fail' }] });
    const wrapped = `<?xml version="1.0"?> <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">\n${xml.replace(/^<\?xml[^>]*>/, '')}</xs:schema><unclosed> & <`;
    expect(parseOk(wrapped).records).toMatchObject([{ sourceIp: '192.0.2.1', count: 2 }]);
    expect(parseOk(`${xml}trailing text <br> &`).reportId).toBe('r1');
  });

  it('drops namespace prefixes, and knows RFC 9990 by its namespace however prefixed', () => {
    const xml = reportXml({ ...base, records: [{ ip: '192.0.2.1', count: 1, dkim: 'pass', spf: 'pass' }] })
      .replace(/<(\/?)(\w+)/g, '<$1d:$2')
      .replace('<d:feedback>', '<d:feedback xmlns:d="urn:ietf:params:xml:ns:dmarc-2.0">');
    const report = parseOk(xml);
    expect(report).toMatchObject({ schema: 'rfc9990', reportId: 'r1', policy: { domain: 'example.com' } });
    expect(report.records[0]).toMatchObject({ sourceIp: '192.0.2.1', dkimResult: 'pass' });
  });

  it('expands character references, keeps unknown entities as written, and reads a bare "&" or "<" in text as text', () => {
    const xml = reportXml({ ...base, records: [{ ip: '192.0.2.1', count: 1, dkim: 'pass', spf: 'pass' }] });
    expect(parseOk(xml.replace('<org_name>x.org', '<org_name>&#65;&#x42;&nbsp;')).orgName).toBe('AB&nbsp;');
    const stray = xml
      .replace('<org_name>x.org', '<org_name>AT&T')
      .replace('<header_from>example.com', '<header_from>a<b & c&d;<');
    expect(parseAggregateReport(stray)).toMatchObject({
      ok: true,
      report: { orgName: 'AT&T', records: [{ sourceIp: '192.0.2.1', headerFrom: 'a<b & c&d;<' }] },
      warnings: [
        'The file is not valid XML: 4 "&" and "<" written in text without escaping (the first on line 4) were read as text.',
      ],
    });
    // Fed a character at a time, as a large report's pieces may cut it anywhere, the text is read the same.
    const byCharacter = new StrayCharacters();
    const passed = [...stray].map((c) => byCharacter.push(c)).join('') + byCharacter.end();
    const whole = new StrayCharacters();
    expect(passed).toBe(whole.push(stray) + whole.end());
    expect(byCharacter.warning()).toBe(whole.warning());
    // Markup that is whole stays markup: an element left open is still an error, not text.
    expect(parseAggregateReport(xml.replace('</org_name>', '</orgname>'))).toMatchObject({ ok: false });
  });

  it('counts lines in the whole file when <feedback> does not start it', () => {
    const xml = `<?xml version="1.0"?>\n<wrapper>\n${reportXml({ ...base, records: [] })
      .replace(/^<\?xml[^>]*>\n/, '')
      .replace('</email>', '</e-mail>')}`;
    expect(parseAggregateReport(xml)).toEqual({
      ok: false,
      error: expect.stringMatching(/^The file is not valid XML: .*<\/e-mail>.* \(line 6, column \d+\)\.$/),
    });
    expect(parseAggregateReport(reportXml({ ...base, records: [] }).slice(0, -30))).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^The file is not valid XML: it ends before <policy_published> is closed \(line \d+, column \d+\)\.$/,
      ),
    });
  });

  it('trims a field padded with whitespace before measuring it, and refuses one too long across reading slices', () => {
    const xml = reportXml({ ...base, records: [] });
    const pad = ' \n'.repeat(100_000);
    expect(parseOk(xml.replace('<report_id>r1', `<report_id>${pad}r1${pad}`)).reportId).toBe('r1');
    expect(parseAggregateReport(xml.replace('<report_id>r1', `<report_id>r${pad}1`))).toEqual({
      ok: false,
      error: "The report's report_id (report_metadata/report_id) is longer than 1,024 characters.",
    });
  });
});

describe('readReportHeader', () => {
  it('gives what parseAggregateReport gives, without the records', () => {
    const bytes = fixture(LARGE_REPORT);
    const { records, ...header } = parseOk(bytes);
    expect(records).toHaveLength(2286);
    expect(readReportHeader(bytes)).toEqual({ ok: true, header });
    expect(readReportHeader(bytes.toString('utf8'))).toEqual({ ok: true, header });
    expect(readReportHeader(fixture('aggregate/rfc9990-sample.xml'))).toMatchObject({
      ok: true,
      header: { schema: 'rfc9990', policy: { np: 'none' } },
    });
  });

  it('does not read past the header: what follows may be broken XML or bad UTF-8', () => {
    const report = manyRecords(50_000, '<record><row>broken');
    const bytes = Buffer.concat([Buffer.from(report), Buffer.from([0xff, 0xfe, 0xc3])]);
    expect(parseAggregateReport(bytes)).toMatchObject({ ok: false, error: expect.stringMatching(/not valid XML/) });
    expect(readReportHeader(bytes)).toMatchObject({
      ok: true,
      header: { reportId: 'r1', orgName: 'x.org', policy: { domain: 'example.com', pct: 100 } },
    });
    expect(readReportHeader(report)).toMatchObject({ ok: true, header: { reportId: 'r1' } });
  });

  it('does not cut a UTF-8 character where it stops decoding', () => {
    // Two-byte characters on both sides of the 64 KiB a header read decodes first, then a byte that is not UTF-8.
    const xml = reportXml({ ...base, records: [] }).replace('</feedback>', `<x>a${'é'.repeat(40_000)}</x></feedback>`);
    const bytes = Buffer.concat([Buffer.from(xml), Buffer.from([0xff])]);
    expect(bytes[64 * 1024] & 0xc0).toBe(0x80); // the 64 KiB end in the middle of an 'é'
    expect(readReportHeader(bytes)).toMatchObject({ ok: true, header: { reportId: 'r1' } });
  });

  it('reads on, without building records, when the records come first', () => {
    const xml = manyRecords(3_000).replace(/(<report_metadata>[\s\S]*<\/policy_published>)([\s\S]*<\/record>)/, '$2$1');
    expect(xml.indexOf('<report_metadata>')).toBeGreaterThan(128 * 1024);
    expect(readReportHeader(Buffer.from(xml))).toMatchObject({
      ok: true,
      header: { reportId: 'r1', policy: { domain: 'example.com' } },
    });
    expect(parseOk(xml).records).toHaveLength(3_000);
  });

  it('checks the header as the full parse does', () => {
    const xml = reportXml({ ...base, records: [] });
    for (const broken of [
      xml.replace('<report_id>r1</report_id>', ''),
      xml.replace('<domain>example.com</domain>', '<domain> </domain>'),
      xml.replace(/<begin>\d+/, '<begin>yesterday'),
      xml.replace(/<policy_published>[\s\S]*<\/policy_published>/, ''),
      xml.replace('</org_name>', '</orgname>'),
      '',
      '<html></html>',
    ]) {
      const full = parseAggregateReport(broken);
      expect(full.ok).toBe(false);
      expect(readReportHeader(broken)).toEqual(full);
    }
  });
});

/**
 * An RFC 9990 report shaped as the RFC's sample report (appendix B, aggregate/rfc9990-sample.xml),
 * with the parts a case changes.
 */
function dmarcbisXml(
  parts: {
    root?: string;
    version?: string;
    metadata?: string;
    policy?: string;
    extension?: string;
    record?: string;
  } = {},
): string {
  const {
    root = '<feedback xmlns="urn:ietf:params:xml:ns:dmarc-2.0">',
    version = '<version>1.0</version>',
    metadata = '<generator>Example DMARC Aggregate Reporter v1.2</generator>',
    policy = '<discovery_method>treewalk</discovery_method>',
    extension = '',
    record = `<auth_results>
        <dkim><domain>example.com</domain><selector>abc123</selector><result>pass</result></dkim>
        <spf><domain>example.com</domain><result>fail</result></spf>
      </auth_results>`,
  } = parts;
  const closing = /^<([\w.-]+:)?feedback/.exec(root)?.[1] ?? '';
  return `<?xml version="1.0" encoding="UTF-8"?>
${root}
  ${version}
  <report_metadata>
    <org_name>Sample Reporter</org_name>
    <email>report_sender@example-reporter.com</email>
    <report_id>3v98abbp8ya9n3va8yr8oa3ya</report_id>
    <date_range><begin>302832000</begin><end>302918399</end></date_range>
    ${metadata}
  </report_metadata>
  <policy_published>
    <domain>example.com</domain>
    <p>quarantine</p>
    <sp>none</sp>
    <np>none</np>
    <testing>n</testing>
    ${policy}
  </policy_published>
  ${extension}
  <record>
    <row>
      <source_ip>192.0.2.123</source_ip>
      <count>123</count>
      <policy_evaluated><disposition>pass</disposition><dkim>pass</dkim><spf>fail</spf></policy_evaluated>
    </row>
    <identifiers><envelope_from>example.com</envelope_from><header_from>example.com</header_from></identifiers>
    ${record}
  </record>
</${closing}feedback>`;
}

describe('RFC 9990 aggregate reports, clause by clause', () => {
  it('RFC 9990 appendix B: the sample report is read whole, version, generator and discovery method included', () => {
    const report = parseOk(fixture('aggregate/rfc9990-sample.xml'));
    expect(report).toMatchObject({
      schema: 'rfc9990',
      version: '1.0',
      generator: 'Example DMARC Aggregate Reporter v1.2',
    });
    expect(report.policy.discoveryMethod).toBe('treewalk');
    expect(report.records).toEqual([
      {
        sourceIp: '192.0.2.123',
        count: 123,
        disposition: 'pass',
        dkimResult: 'pass',
        spfResult: 'fail',
        reason: null,
        headerFrom: 'example.com',
        envelopeFrom: 'example.com',
        envelopeTo: null,
        dkimAuth: [{ domain: 'example.com', selector: 'abc123', result: 'pass', humanResult: null }],
        spfAuth: [{ domain: 'example.com', scope: null, result: 'fail', humanResult: null }],
      },
    ]);
  });

  it.each([
    [
      'RFC 9990 3.1.1.2 (first level elements): version is read as written',
      { version: '<version>1.0</version>' },
      { version: '1.0' },
    ],
    ['RFC 9990 3.1.1.2 (first level elements): version is optional', { version: '' }, { version: null }],
    [
      'RFC 9990 3.1.1.2: a version that is not a decimal is not kept',
      { version: '<version>one</version>' },
      { version: null },
    ],
    ['RFC 9990 3.1.1.3 (report generator metadata): generator is optional', { metadata: '' }, { generator: null }],
    [
      'RFC 9990 3.1.1.5 (policy_published): discovery_method psl',
      { policy: '<discovery_method>psl</discovery_method>' },
      { policy: { discoveryMethod: 'psl' } },
    ],
    [
      'RFC 9990 3.1.1.5 (policy_published): discovery_method is optional',
      { policy: '' },
      { policy: { discoveryMethod: null } },
    ],
    ['RFC 9990 3.1.1.5: testing and np are read', {}, { policy: { testing: 'n', np: 'none' } }],
  ] as const)('%s', (_clause, parts, expected) => {
    expect(parseOk(dmarcbisXml(parts))).toMatchObject(expected);
  });

  it('RFC 9990 3.1.1.9 (policy_evaluated): disposition "pass" (no action, passing DMARC under an enforcing policy) counts as a DMARC pass', () => {
    const report = parseOk(dmarcbisXml());
    expect(report.records[0].disposition).toBe('pass');
    expect(passesDmarc(report.records[0])).toBe(true);
    // The receiver says it passed, even where it left out the aligned results the schema requires.
    const bare = dmarcbisXml().replace('<dkim>pass</dkim><spf>fail</spf>', '');
    expect(passesDmarc(parseOk(bare).records[0])).toBe(true);
    expect(passesDmarc({ disposition: 'none', dkimResult: 'none', spfResult: 'none' })).toBe(false);
  });

  it('RFC 9990 3.1.1.12 (dkim): the selector is read beside the domain, and a result without the required selector is still read (Postel)', () => {
    const withSelector = parseOk(dmarcbisXml());
    expect(withSelector.records[0].dkimAuth).toEqual([
      { domain: 'example.com', selector: 'abc123', result: 'pass', humanResult: null },
    ]);
    const without = parseOk(
      dmarcbisXml({
        record: '<auth_results><dkim><domain>example.com</domain><result>fail</result></dkim></auth_results>',
      }),
    );
    expect(without.records[0].dkimAuth).toEqual([
      { domain: 'example.com', selector: null, result: 'fail', humanResult: null },
    ]);
  });

  it('RFC 9990 3.1.1.12 and 3.1.1.13 (dkim, spf): human_result is read, whatever its lang attribute', () => {
    const report = parseOk(
      dmarcbisXml({
        record: `<auth_results>
          <dkim><domain>example.com</domain><selector>s2025</selector><result>fail</result><human_result lang="en">signature verification failed: body hash mismatch</human_result></dkim>
          <spf><domain>bounces.example.com</domain><scope>mfrom</scope><result>permerror</result><human_result>too many DNS lookups (11)</human_result></spf>
        </auth_results>`,
      }),
    );
    expect(report.records[0].dkimAuth).toEqual([
      {
        domain: 'example.com',
        selector: 's2025',
        result: 'fail',
        humanResult: 'signature verification failed: body hash mismatch',
      },
    ]);
    expect(report.records[0].spfAuth).toEqual([
      { domain: 'bounces.example.com', scope: 'mfrom', result: 'permerror', humanResult: 'too many DNS lookups (11)' },
    ]);
  });

  it('RFC 9990 3.1.1.1 (root element): the DMARC namespace is known whether it is the default namespace or a declared prefix', () => {
    expect(parseOk(dmarcbisXml()).schema).toBe('rfc9990');
    const prefixed = dmarcbisXml({ root: '<d:feedback xmlns:d="urn:ietf:params:xml:ns:dmarc-2.0">' }).replace(
      /<(\/?)(?!d:|\?)(\w+)/g,
      '<$1d:$2',
    );
    expect(parseOk(prefixed)).toMatchObject({
      schema: 'rfc9990',
      version: '1.0',
      generator: 'Example DMARC Aggregate Reporter v1.2',
    });
    // The namespace URI named elsewhere in the start tag (an extension's) does not make a report RFC 9990.
    const other = dmarcbisXml({ root: '<feedback xmlns:old="urn:ietf:params:xml:ns:dmarc-2.0">' });
    expect(parseOk(other).schema).toBe('rfc7489');
  });

  it('RFC 9990 3.1.1.1 and 6 (extensible reporting): a default namespace mixed with prefixed DMARC elements and namespaced extension elements', () => {
    const xml = dmarcbisXml({
      root: '<feedback xmlns="urn:ietf:params:xml:ns:dmarc-2.0" xmlns:dmarc="urn:ietf:params:xml:ns:dmarc-2.0" xmlns:arc="https://arc.example/dmarc-extension">',
      version: '<dmarc:version>1.0</dmarc:version>',
      metadata: '<dmarc:generator>Mixed Reporter 3.1</dmarc:generator>',
      policy: '<dmarc:discovery_method>psl</dmarc:discovery_method>',
      extension:
        '<extension><arc:policy_published><arc:domain>elsewhere.example</arc:domain></arc:policy_published></extension>',
      // A record-level extension element after auth_results (RFC 9990 6), named like a DMARC element: only its
      // namespace tells it apart.
      record: `<dmarc:auth_results><dkim><domain>example.com</domain><dmarc:selector>abc123</dmarc:selector><result>pass</result></dkim></dmarc:auth_results>
        <arc:auth_results><arc:dkim><arc:domain>forwarder.example</arc:domain><arc:selector>f1</arc:selector><arc:result>pass</arc:result></arc:dkim></arc:auth_results>`,
    });
    const report = parseOk(xml);
    expect(report).toMatchObject({
      schema: 'rfc9990',
      version: '1.0',
      generator: 'Mixed Reporter 3.1',
      policy: { domain: 'example.com', discoveryMethod: 'psl' },
    });
    expect(report.records[0].dkimAuth).toEqual([
      { domain: 'example.com', selector: 'abc123', result: 'pass', humanResult: null },
    ]);
  });

  it("RFC 9990 3.1.1.1: DMARC elements that declare a DMARC namespace of their own are the report's, not extensions", () => {
    const xml = dmarcbisXml({ root: '<feedback>' })
      .replace('<report_metadata>', '<report_metadata xmlns="http://dmarc.org/dmarc-xml/0.1">')
      .replace('<policy_published>', '<d:policy_published xmlns:d="urn:ietf:params:xml:ns:dmarc-2.0">')
      .replace('</policy_published>', '</d:policy_published>');
    expect(parseOk(xml)).toMatchObject({
      schema: 'rfc7489',
      reportId: '3v98abbp8ya9n3va8yr8oa3ya',
      policy: { domain: 'example.com', p: 'quarantine' },
    });
  });

  it('RFC 9990 3.1.1.6 (extension): an extension the reader does not know is skipped, and the report read on', () => {
    // The RFC's second sample (dmarc-xmlalt-0.2.xml): a draft namespace, version 2.0, a file-level extension and an
    // unknown record element.
    const xml = dmarcbisXml({
      root: '<feedback xmlns="http://dmarc.org/dmarc-xml/0.2">',
      version: '<version>2.0</version>',
      extension: '<extension><whatever>Hello World!</whatever></extension>',
      record: `<auth_results><dkim><domain>example.com</domain><result>pass</result><selector>abc123</selector></dkim></auth_results>
        <added><explain>The xsd must be defined separately</explain></added>`,
    });
    const report = parseOk(xml);
    expect(report).toMatchObject({ schema: 'rfc7489', version: '2.0', policy: { domain: 'example.com' } });
    expect(report.records).toMatchObject([
      { sourceIp: '192.0.2.123', count: 123, dkimAuth: [{ domain: 'example.com', selector: 'abc123' }] },
    ]);
  });

  it('reads the 7489-era fields as before: no version, generator or discovery method where the report has none', () => {
    const report = parseOk(fixture('aggregate/old_draft_from_wiki.xml'));
    expect(report).toMatchObject({
      schema: 'rfc7489',
      version: null,
      generator: null,
      policy: { discoveryMethod: null },
    });
    // RFC 7489 appendix C has <version> too.
    expect(parseOk(fixture('aggregate/empty_reason.xml'))).toMatchObject({
      schema: 'rfc7489',
      version: '1.0',
      generator: null,
    });
  });
});
