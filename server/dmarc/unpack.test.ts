import { strToU8, zipSync } from 'fflate';
import MailComposer from 'nodemailer/lib/mail-composer';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors';
import { fixture, fixtureNames } from './fixtures';
import { sniff, unpackUpload, type UnpackedPart } from './unpack';

const summary = (parts: UnpackedPart[]) =>
  parts.map((p) => (p.error === undefined ? { fileName: p.fileName, size: p.bytes.length } : { fileName: p.fileName, error: p.error }));

describe('unpackUpload', () => {
  it('tells formats by their bytes, not their names', async () => {
    const xml = fixture('aggregate/veeam.com!example.com!1530133200!1530219600.xml');
    expect(sniff(xml)).toBe('xml');
    expect(sniff(gzipSync(xml))).toBe('gzip');
    expect(sniff(zipSync({ 'a.xml': xml }))).toBe('zip');
    expect(sniff(fixture('smtp-tls/google.com_smtp_tls_report.eml'))).toBe('email');
    // A gzip named .xml is still gzip.
    expect(summary(await unpackUpload(gzipSync(xml), 'report.xml'))).toEqual([{ fileName: 'report.xml', size: xml.length }]);
  });

  it('opens the .gz and .zip fixtures', async () => {
    const gz = await unpackUpload(fixture('aggregate/fastmail.com!example.com!1516060800!1516147199!102675056.xml.gz'), 'fastmail.xml.gz');
    expect(summary(gz)).toEqual([{ fileName: 'fastmail.xml', size: 1146 }]);
    const zip = await unpackUpload(fixture('aggregate/estadocuenta1.infonacot.gob.mx!example.com!1536853302!1536939702!2940.xml.zip'), 'x.zip');
    expect(summary(zip)).toEqual([{ fileName: 'estadocuenta1.infonacot.gob.mx!example.com!1536853302!1536939702!2940.xml', size: 887 }]);
  });

  it('reads only the .xml entries of a zip, and says so when there are none', async () => {
    const zip = zipSync({ 'a.xml': strToU8('<feedback/>'), 'readme.txt': strToU8('hello'), 'dir/b.xml': strToU8('<x/>') });
    expect(summary(await unpackUpload(zip, 'two.zip')).map((p) => p.fileName)).toEqual(['a.xml', 'b.xml']);
    expect(summary(await unpackUpload(zipSync({ 'readme.txt': strToU8('hello') }), 'none.zip'))).toEqual([
      { fileName: 'none.zip', error: 'The zip archive holds no .xml file, so no DMARC report.' },
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
    expect(summary(await unpackUpload(mail, 'mail.eml'))).toEqual([{ fileName: 'report.xml', size: 1146 }]);
  });

  it.each(fixtureNames('failure'))('failure/%s is recognised as a failure report, not imported', async (name) => {
    const [part] = await unpackUpload(fixture(`failure/${name}`), name);
    expect(part.error).toBe('The e-mail is a DMARC failure (forensic) report, not an aggregate report; failure reports are not imported here.');
  });

  it.each(fixtureNames('smtp-tls'))('smtp-tls/%s is recognised as a TLS report, not imported', async (name) => {
    const [part] = await unpackUpload(fixture(`smtp-tls/${name}`), name);
    expect(part.error).toBe('This is an SMTP TLS report (RFC 8460), not a DMARC aggregate report; TLS reports are not imported here.');
  });

  it('refuses gzip and zip bombs with a 413, the cap counted over the whole upload', async () => {
    const MB = 1024 * 1024;
    const zeros = Buffer.alloc(3 * MB);
    const half = zeros.subarray(0, 1.5 * MB);
    const bombs = [gzipSync(zeros), zipSync({ 'bomb.xml': zeros }), zipSync({ 'a.xml': half, 'b.xml': half }), zipSync({ 'a.xml': gzipSync(zeros) })];
    for (const bomb of bombs) {
      const error = await unpackUpload(bomb, 'bomb', 2 * MB).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ status: 413, message: 'The upload expands to more than 2 MB when decompressed. It was refused and nothing was stored.' });
    }
    // The real cap is 50 MB.
    const big = await unpackUpload(gzipSync(Buffer.alloc(51 * MB)), 'big.gz').catch((e: unknown) => e);
    expect(big).toMatchObject({ status: 413, message: 'The upload expands to more than 50 MB when decompressed. It was refused and nothing was stored.' });
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
