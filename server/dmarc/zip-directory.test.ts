import { inflateSync, strToU8, Zip, ZipDeflate, ZipPassThrough, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures';
import { zipEntryData } from './zip-directory';

const REAL_ZIP = 'aggregate/estadocuenta1.infonacot.gob.mx!example.com!1536853302!1536939702!2940.xml.zip';
const REAL_XML_START = '<?xml';

/** An entry's bytes as the directory places them, inflated when deflated. */
function contents(archive: Uint8Array, entry: { method: number; start: number; end: number }): string {
  const data = archive.subarray(entry.start, entry.end);
  return Buffer.from(entry.method === 8 ? inflateSync(data) : data).toString('latin1');
}

/** A zip as streaming writers make it: sizes left out of the local headers, given in data descriptors after the data. */
function streamedZip(files: Record<string, string>): Uint8Array {
  const out: Uint8Array[] = [];
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    out.push(chunk);
  });
  for (const [name, text] of Object.entries(files)) {
    const file = name.endsWith('.txt') ? new ZipPassThrough(name) : new ZipDeflate(name);
    zip.add(file);
    file.push(strToU8(text), true);
  }
  zip.end();
  return Buffer.concat(out);
}

describe('zipEntryData', () => {
  it('finds the report in a zip a receiver sent (parsedmarc sample)', () => {
    const archive = fixture(REAL_ZIP);
    const entries = zipEntryData(archive);
    expect(entries).toHaveLength(1);
    expect(contents(archive, entries![0]).startsWith(REAL_XML_START)).toBe(true);
  });

  it('gives entries in the order of their local headers, stored and deflated, with an archive comment', () => {
    const archive = zipSync(
      { 'a.xml': [strToU8('<a/>'.repeat(100)), { level: 6 }], 'b.txt': [strToU8('plain'), { level: 0 }] },
      { comment: 'made by a receiver' },
    );
    const entries = zipEntryData(archive)!;
    expect(entries.map((e) => e.method)).toEqual([8, 0]);
    expect(entries.map((e) => contents(archive, e))).toEqual(['<a/>'.repeat(100), 'plain']);
  });

  it('reads sizes from the directory when the local headers leave them to data descriptors', () => {
    const archive = streamedZip({ 'report.xml': '<feedback/>'.repeat(50), 'note.txt': 'x' });
    const entries = zipEntryData(archive)!;
    expect(entries.map((e) => contents(archive, e))).toEqual(['<feedback/>'.repeat(50), 'x']);
  });

  it('is null for an archive without a readable directory: cut short, or not a zip', () => {
    const archive = zipSync({ 'a.xml': strToU8('<a/>') });
    expect(zipEntryData(archive.subarray(0, archive.length - 10))).toBeNull();
    expect(zipEntryData(strToU8('PK not really a zip'))).toBeNull();
    // A directory that points past the archive's end.
    const broken = Buffer.from(archive);
    broken.writeUInt32LE(0x7fffffff, broken.length - 6);
    expect(zipEntryData(broken)).toBeNull();
  });
});
