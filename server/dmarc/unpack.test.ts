import { strToU8, unzipSync, zipSync } from 'fflate';
import MailComposer from 'nodemailer/lib/mail-composer';
import { crc32, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors';
import { fixture, fixtureNames } from './fixtures';
import { RFC9991_EXAMPLE_REPORT } from './rfc9991-example.test-support';
import { HELD_LIMIT_BYTES, sniff, unpackUpload, type UnpackedPart } from './unpack';

const summary = (parts: UnpackedPart[]) =>
  parts.map((p) =>
    p.error === undefined
      ? { fileName: p.fileName, size: p.bytes.length, ...(p.warning && { warning: p.warning }) }
      : { fileName: p.fileName, error: p.error },
  );

const VEEAM = 'aggregate/veeam.com!example.com!1530133200!1530219600.xml';
const ZIPPED = 'aggregate/estadocuenta1.infonacot.gob.mx!example.com!1536853302!1536939702!2940.xml.zip';
const CRLF = Buffer.from('\r\n');
const STRAY_CRLF = 'Ignored 2 stray bytes after the end of the gzip data, as gzip does.';

describe('unpackUpload', () => {
  it('tells formats by their bytes, not their names', async () => {
    const xml = fixture('aggregate/veeam.com!example.com!1530133200!1530219600.xml');
    expect(sniff(xml)).toBe('xml');
    expect(sniff(gzipSync(xml))).toBe('gzip');
    expect(sniff(zipSync({ 'a.xml': xml }))).toBe('zip');
    expect(sniff(fixture('smtp-tls/google.com_smtp_tls_report.eml'))).toBe('email');
    // A gzip named .xml is still gzip.
    expect(summary(await unpackUpload(gzipSync(xml), 'report.xml'))).toEqual([
      { fileName: 'report.xml', size: xml.length },
    ]);
  });

  it('opens the .gz and .zip fixtures', async () => {
    const gz = await unpackUpload(
      fixture('aggregate/fastmail.com!example.com!1516060800!1516147199!102675056.xml.gz'),
      'fastmail.xml.gz',
    );
    expect(summary(gz)).toEqual([{ fileName: 'fastmail.xml', size: 1146 }]);
    const zip = await unpackUpload(
      fixture('aggregate/estadocuenta1.infonacot.gob.mx!example.com!1536853302!1536939702!2940.xml.zip'),
      'x.zip',
    );
    expect(summary(zip)).toEqual([
      { fileName: 'estadocuenta1.infonacot.gob.mx!example.com!1536853302!1536939702!2940.xml', size: 887 },
    ]);
  });

  it('reads only the .xml entries of a zip, and says so when there are none', async () => {
    const zip = zipSync({
      'a.xml': strToU8('<feedback/>'),
      'readme.txt': strToU8('hello'),
      'dir/b.xml': strToU8('<x/>'),
    });
    expect(summary(await unpackUpload(zip, 'two.zip')).map((p) => p.fileName)).toEqual(['a.xml', 'b.xml']);
    expect(summary(await unpackUpload(zipSync({ 'readme.txt': strToU8('hello') }), 'none.zip'))).toEqual([
      { fileName: 'none.zip', error: 'The zip archive holds no .xml file, so no DMARC report.' },
    ]);
  });

  it('reads a zip entry that has no name, as parsedmarc does, named after the archive', async () => {
    // The real report of the .zip fixture, in an entry whose name is empty.
    const [report] = Object.values(unzipSync(fixture(ZIPPED)));
    const zip = zipSync({ '': report });
    expect(summary(await unpackUpload(zip, 'google.com!example.com!1536853302.xml.zip'))).toEqual([
      { fileName: 'google.com!example.com!1536853302.xml', size: report.length },
    ]);
  });

  it('takes the report attachments out of an e-mail', async () => {
    const gz = fixture('aggregate/fastmail.com!example.com!1516060800!1516147199!102675056.xml.gz');
    const mail = await new MailComposer({
      from: 'noreply@fastmail.example',
      to: 'dmarc@example.com',
      subject: 'Report Domain: example.com',
      text: 'DMARC aggregate report attached.',
      attachments: [
        { filename: 'report.xml.gz', content: gz, contentType: 'application/gzip' },
        { filename: 'logo.png', content: Buffer.from('not a report'), contentType: 'image/png' },
      ],
    })
      .compile()
      .build();
    const parts = await unpackUpload(mail, 'mail.eml');
    expect(summary(parts)).toEqual([{ fileName: 'report.xml', size: 1146 }]);
    // What is kept of a report that cannot be read is the attachment it came in, as it came (compressed).
    expect(parts[0].received).toEqual({ fileName: 'report.xml.gz', data: gz });
  });

  const NOT_IMPORTED =
    'Failure reports are not imported here; the aggregate reports (rua=) count such failures by source.';
  const FAILURE_FIXTURES: Record<string, { error: string; reportedDomains?: string[] }> = {
    'DMARC Failure Report for domain.de (mail-from=sharepoint@domain.de, ip=10.10.10.10).eml': {
      error: `The e-mail is a DMARC failure report (RFC 9991) for domain.de from 10.10.10.10 (envelope sender domain.de, arrived 2018-10-01 09:20 UTC): SPF or DKIM did not produce an aligned identity (Auth-Failure: dmarc). ${NOT_IMPORTED}`,
      reportedDomains: ['domain.de'],
    },
    '[Netease DMARC Failure Report] Rent Reminder.eml': {
      error: `The e-mail is a DMARC failure report (RFC 9991) for cardinal.com from 167.89.69.24 (envelope sender email.entrata.com, arrived 2018-09-28 08:48 UTC): neither SPF nor DKIM authenticated an aligned identity (Identity-Alignment: spf, dkim); the DKIM signature checked was d=entrata.com. ${NOT_IMPORTED}`,
      reportedDomains: ['cardinal.com'],
    },
    'dmarc_ruf_report_linkedin.crlf.eml': {
      error: `The e-mail is a DMARC failure report (RFC 9991) for example.com from 10.10.10.10 (arrived 2019-04-30 02:09 UTC): SPF or DKIM did not produce an aligned identity (Auth-Failure: dmarc). ${NOT_IMPORTED}`,
      reportedDomains: ['example.com'],
    },
    'dmarc_ruf_report_linkedin.eml': {
      error: `The e-mail is a DMARC failure report (RFC 9991) for example.com from 10.10.10.10 (arrived 2019-04-30 02:09 UTC): SPF or DKIM did not produce an aligned identity (Auth-Failure: dmarc). ${NOT_IMPORTED}`,
      reportedDomains: ['example.com'],
    },
    // No ARF part (message/feedback-report): known as a failure report by its subject only, with nothing to route it
    // by.
    'exim_plain_text_only_no_arf_part.eml': {
      error:
        'The e-mail is a DMARC failure (forensic) report, not an aggregate report; failure reports are not imported here.',
    },
  };

  it('knows every failure fixture', () => {
    expect(fixtureNames('failure')).toEqual(Object.keys(FAILURE_FIXTURES).sort());
  });

  it.each(Object.entries(FAILURE_FIXTURES))(
    'failure/%s (RFC 6591 era) is read as a failure report, not imported',
    async (name, expected) => {
      const [part] = await unpackUpload(fixture(`failure/${name}`), name);
      expect(part.error).toBe(expected.error);
      expect(part.error !== undefined && part.failureReport?.arf.reportedDomains).toEqual(
        expected.reportedDomains ?? undefined,
      );
    },
  );

  it('RFC 9991 appendix A: the example failure report says what failed, for which domain and from where, and who mailed it', async () => {
    const [part] = await unpackUpload(Buffer.from(RFC9991_EXAMPLE_REPORT), 'ruf.eml');
    expect(part).toEqual({
      fileName: 'ruf.eml',
      rawSize: RFC9991_EXAMPLE_REPORT.length,
      error: `The e-mail is a DMARC failure report (RFC 9991) for consumer.example from 192.0.2.2 (envelope sender forwarder.example): DKIM did not authenticate an aligned identity (Identity-Alignment: dkim); the DKIM signature checked was d=consumer.example s=epsilon. ${NOT_IMPORTED}`,
      failureReport: {
        arf: expect.objectContaining({ reportedDomains: ['consumer.example'], sourceIp: '192.0.2.2' }),
        mailFrom: 'DMARC@gen.example',
      },
      received: expect.objectContaining({ fileName: 'ruf.eml' }),
    });
  });

  it('RFC 6591 2: a failure report is known by its ARF part, even when it attaches the failed message as a file', async () => {
    const asFile = RFC9991_EXAMPLE_REPORT.replace(
      'Content-Type: message/rfc822; charset=utf-8',
      'Content-Type: application/octet-stream\r\nContent-Disposition: attachment',
    );
    const parts = await unpackUpload(Buffer.from(asFile), 'ruf.eml');
    expect(parts).toHaveLength(1);
    expect(parts[0].error).toMatch(/^The e-mail is a DMARC failure report \(RFC 9991\) for consumer\.example/);
  });

  it.each(fixtureNames('smtp-tls'))('smtp-tls/%s is recognised as a TLS report, not imported', async (name) => {
    const [part] = await unpackUpload(fixture(`smtp-tls/${name}`), name);
    expect(part.error).toBe(
      'This is an SMTP TLS report (RFC 8460), not a DMARC aggregate report; TLS reports are not imported here.',
    );
  });

  it('refuses gzip and zip bombs with a 413, the cap counted over the whole upload', async () => {
    const MB = 1024 * 1024;
    const zeros = Buffer.alloc(3 * MB);
    const half = zeros.subarray(0, 1.5 * MB);
    const bombs = [
      gzipSync(zeros),
      zipSync({ 'bomb.xml': zeros }),
      zipSync({ 'a.xml': half, 'b.xml': half }),
      zipSync({ 'a.xml': gzipSync(zeros) }),
    ];
    for (const bomb of bombs) {
      const error = await unpackUpload(bomb, 'bomb', 2 * MB).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        status: 413,
        message: 'The upload expands to more than 2 MB when decompressed. It was refused and nothing was stored.',
      });
    }
    // The real cap is 512 MB (members of 64 MB each, so the test holds none of it).
    const member = gzipSync(Buffer.alloc(64 * MB));
    const big = await unpackUpload(Buffer.concat(Array(9).fill(member)), 'big.gz').catch((e: unknown) => e);
    expect(big).toMatchObject({
      status: 413,
      message: 'The upload expands to more than 512 MB when decompressed. It was refused and nothing was stored.',
    });
  });

  it('holds at most 50 MB of one part: a larger gzipped or zipped report is read again piece by piece, anything else is refused', async () => {
    const MB = 1024 * 1024;
    const xml = Buffer.concat([
      Buffer.from('<feedback>'),
      Buffer.alloc(HELD_LIMIT_BYTES + MB, ' '),
      Buffer.from('</feedback>'),
    ]);
    const [part] = await unpackUpload(gzipSync(xml), 'large.xml.gz');
    if (part.error !== undefined || part.bytes instanceof Uint8Array)
      throw new Error('expected a report read piece by piece');
    expect(part).toMatchObject({ fileName: 'large.xml', bytes: { length: xml.length } });
    expect(Buffer.from(part.bytes.head.subarray(0, 10)).toString()).toBe('<feedback>');
    const pieces = [...part.bytes.pieces()];
    expect(pieces.length).toBeGreaterThan(1);
    expect(Buffer.concat(pieces).equals(xml)).toBe(true);

    // Zipped, as Google sends its reports: found through the archive's directory and inflated again as it is read.
    const [zippedPart] = await unpackUpload(zipSync({ 'google.com!big.xml': xml }, { level: 1 }), 'big.zip');
    if (zippedPart.error !== undefined || zippedPart.bytes instanceof Uint8Array)
      throw new Error('expected a zipped report read piece by piece');
    expect(zippedPart).toMatchObject({ fileName: 'google.com!big.xml', bytes: { length: xml.length } });
    expect(Buffer.concat([...zippedPart.bytes.pieces()]).equals(xml)).toBe(true);

    // An archive inside must be held to be opened: over 50 MB, it is refused.
    const archiveInside = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(HELD_LIMIT_BYTES + MB)]);
    const zipped = zipSync({ 'a.xml': archiveInside }, { level: 1 });
    for (const held of [zipped, gzipSync(zipped)]) {
      expect(await unpackUpload(held, 'held').catch((e: unknown) => e)).toMatchObject({
        status: 413,
        message: 'The upload expands to more than 50 MB when decompressed. It was refused and nothing was stored.',
      });
    }
  });

  it('reads a gzip file with stray bytes after its end, as gzip does, and says they were ignored', async () => {
    const xml = fixture(VEEAM);
    // As a Mimecast report arrives: one complete gzip member, then CRLF.
    const mimecast = Buffer.concat([gzipSync(xml), CRLF]);
    expect(summary(await unpackUpload(mimecast, 'mimecast.xml.gz'))).toEqual([
      { fileName: 'mimecast.xml', size: xml.length, warning: STRAY_CRLF },
    ]);
    const zeros = await unpackUpload(Buffer.concat([gzipSync(xml), Buffer.alloc(1)]), 'padded.xml.gz');
    expect(zeros[0]).toMatchObject({ warning: 'Ignored 1 stray byte after the end of the gzip data, as gzip does.' });

    // Attached to a mail (upload, SMTP and IMAP all unpack mail here): the same.
    const mail = await new MailComposer({
      from: 'dmarc-reports@mimecast.example',
      to: 'dmarc@example.com',
      subject: 'Report Domain: example.com',
      attachments: [{ filename: 'report.xml.gz', content: mimecast, contentType: 'application/gzip' }],
    })
      .compile()
      .build();
    expect(summary(await unpackUpload(mail, 'mail.eml'))).toEqual([
      { fileName: 'report.xml', size: xml.length, warning: STRAY_CRLF },
    ]);
  });

  it('joins concatenated gzip members, as gunzip does, with no warning', async () => {
    const joined = Buffer.concat([gzipSync('<feedback>'), gzipSync('</feedback>')]);
    const [part] = await unpackUpload(joined, 'two.xml.gz');
    expect(part).toEqual({
      fileName: 'two.xml',
      bytes: Buffer.from('<feedback></feedback>'),
      received: { fileName: 'two.xml.gz', data: joined },
    });
    const [withCrlf] = await unpackUpload(Buffer.concat([joined, CRLF]), 'two.xml.gz');
    expect(withCrlf).toMatchObject({ bytes: Buffer.from('<feedback></feedback>'), warning: STRAY_CRLF });
  });

  it('counts every gzip member against the decompression cap, stray bytes or not', async () => {
    const MB = 1024 * 1024;
    const half = gzipSync(Buffer.alloc(1.5 * MB));
    for (const bomb of [
      Buffer.concat([gzipSync(Buffer.alloc(3 * MB)), CRLF]),
      Buffer.concat([half, half]),
      Buffer.concat([half, half, CRLF]),
    ]) {
      const error = await unpackUpload(bomb, 'bomb.gz', 2 * MB).catch((e: unknown) => e);
      expect(error).toMatchObject({
        status: 413,
        message: 'The upload expands to more than 2 MB when decompressed. It was refused and nothing was stored.',
      });
    }
  });

  it('still refuses a gzip file cut short or corrupt, wherever it is cut', async () => {
    const gz = gzipSync(fixture(VEEAM));
    const damaged = async (data: Uint8Array) => summary(await unpackUpload(data, 'bad.xml.gz'))[0];
    // Cut in the deflate data, in the trailer, in a second member's header.
    for (const cut of [
      gz.subarray(0, gz.length / 2),
      gz.subarray(0, gz.length - 3),
      Buffer.concat([gz, gz.subarray(0, 5)]),
    ]) {
      expect(await damaged(cut)).toEqual({
        fileName: 'bad.xml.gz',
        error: 'The gzip file is damaged: unexpected end of file.',
      });
    }
    const wrongCrc = Buffer.from(gz);
    wrongCrc[gz.length - 8] ^= 0xff;
    expect(await damaged(wrongCrc)).toEqual({
      fileName: 'bad.xml.gz',
      error: 'The gzip file is damaged: incorrect data check.',
    });
    const wrongLength = Buffer.concat([gz, CRLF]);
    wrongLength[gz.length - 4] ^= 0x01;
    expect(await damaged(wrongLength)).toEqual({
      fileName: 'bad.xml.gz',
      error: 'The gzip file is damaged: incorrect length check.',
    });
  });

  it('reads the optional gzip header fields (extra, name, comment, header CRC) and checks the header CRC', async () => {
    const deflated = gzipSync('<feedback/>').subarray(10);
    // FHCRC | FEXTRA | FNAME | FCOMMENT, then a 2-byte extra field, the name and the comment.
    const fields = Buffer.concat([
      Buffer.from([0x1f, 0x8b, 8, 0x1e, 0, 0, 0, 0, 0, 3, 2, 0, 0xab, 0xcd]),
      Buffer.from('report.xml\0a comment\0'),
    ]);
    const headerCrc = Buffer.alloc(2);
    headerCrc.writeUInt16LE(crc32(fields) & 0xffff);
    const header = Buffer.concat([fields, headerCrc]);
    expect(await unpackUpload(Buffer.concat([header, deflated, CRLF]), 'h.gz')).toEqual([
      {
        fileName: 'h',
        bytes: Buffer.from('<feedback/>'),
        warning: STRAY_CRLF,
        received: expect.objectContaining({ fileName: 'h.gz' }),
      },
    ]);
    const damaged = async (data: Uint8Array) => summary(await unpackUpload(data, 'h.gz'));
    expect(await damaged(header.subarray(0, 16))).toEqual([
      { fileName: 'h.gz', error: 'The gzip file is damaged: unexpected end of file.' },
    ]);
    expect(await damaged(Buffer.concat([fields, Buffer.alloc(2), deflated]))).toEqual([
      { fileName: 'h.gz', error: 'The gzip file is damaged: header crc mismatch.' },
    ]);
  });

  it('reports damaged archives as failed parts', async () => {
    const gz = gzipSync('<feedback/>');
    expect(summary(await unpackUpload(gz.subarray(0, 12), 'cut.xml.gz'))).toEqual([
      { fileName: 'cut.xml.gz', error: 'The gzip file is damaged: unexpected end of file.' },
    ]);
    const zip = zipSync({ 'a.xml': strToU8('<feedback>'.repeat(1000)) });
    const [part] = await unpackUpload(zip.subarray(0, 60), 'cut.zip');
    expect(part.error).toMatch(/^The zip archive is damaged/);
  });
});
