import { describe, expect, it } from 'vitest';
import type { DmarcRecord, DmarcReport } from '@contracts/dmarc';
import { formatDate } from '../../lib/format';
import {
  authResultsText,
  discoveryText,
  dispositionsText,
  reportFormatText,
  reportPeriod,
  shareText,
  sourceName,
  summariseUpload,
  unauthenticatedCountText,
} from './dmarc-text';
import { makeFailedImport, makeReport, uploadAnswer } from './test/fixtures';

describe('reportPeriod', () => {
  it('reads a day ending at 23:59:59 or at the next midnight as that one UTC day', () => {
    expect(reportPeriod({ dateBegin: '2025-03-01T00:00:00.000Z', dateEnd: '2025-03-01T23:59:59.000Z' })).toBe(
      'Mar 1, 2025',
    );
    expect(reportPeriod({ dateBegin: '2025-03-01T00:00:00.000Z', dateEnd: '2025-03-02T00:00:00.000Z' })).toBe(
      'Mar 1, 2025',
    );
  });

  it('shows both ends of a longer period, and N/A without dates', () => {
    expect(reportPeriod({ dateBegin: '2025-02-27T00:00:00.000Z', dateEnd: '2025-03-01T00:00:00.000Z' })).toBe(
      'Feb 27, 2025 – Feb 28, 2025',
    );
    expect(reportPeriod({ dateBegin: null, dateEnd: null })).toBe('N/A');
    expect(formatDate('yesterday', { utc: true })).toBe('Invalid date');
  });
});

describe('source and share texts', () => {
  it('names a source by its provider, then reverse DNS, then the domain it authenticated as; never by its IP', () => {
    const none = { provider: null, organisation: null, reverseDns: null, authDomains: [] };
    expect(
      sourceName({ ...none, provider: 'Google', organisation: 'google.com', reverseDns: 'mail.google.com' }),
    ).toEqual({
      name: 'Google',
      detail: 'recognised by its reverse DNS, mail.google.com',
    });
    expect(sourceName({ ...none, provider: 'SendGrid', authDomains: ['sendgrid.net'] })).toEqual({
      name: 'SendGrid',
      detail: 'recognised by the domain its mail authenticated as, sendgrid.net; no reverse DNS',
    });
    expect(sourceName({ ...none, provider: 'Google Workspace', providerMatchedBy: 'published-network' })).toEqual({
      name: 'Google Workspace',
      detail: 'recognised by a network Google Workspace publishes in its SPF; no reverse DNS',
    });
    expect(sourceName({ ...none, organisation: 'example.net', reverseDns: 'mx.example.net' })).toEqual({
      name: 'example.net',
      detail: 'mx.example.net',
    });
    expect(sourceName({ ...none, reverseDns: 'mx.example.net' })).toEqual({ name: 'mx.example.net', detail: null });
    expect(sourceName({ ...none, authDomains: ['esp.example'] })).toEqual({
      name: 'esp.example',
      detail: 'authenticated as this domain; no reverse DNS',
    });
    expect(sourceName(none)).toEqual({ name: null, detail: 'No reverse DNS and no other domain authenticated' });
  });

  it('lists dispositions busiest first and shares with one decimal', () => {
    expect(dispositionsText({ none: 3, reject: 1200, quarantine: 0 })).toBe('reject 1,200, none 3');
    expect(dispositionsText({})).toBe('–');
    expect(shareText(2, 3)).toBe('66.7%');
    expect(shareText(0, 0)).toBe('–');
  });
});

describe('summariseUpload', () => {
  it('titles the toast by what happened', () => {
    expect(summariseUpload(uploadAnswer(), 'example.com').title).toBe('DMARC report uploaded');
    expect(summariseUpload(uploadAnswer({ imported: 0, duplicates: 1, reports: [] }), 'example.com').title).toBe(
      'Nothing new to import',
    );
    const failed = [{ fileName: 'a.xml', error: 'Not XML' }];
    expect(summariseUpload(uploadAnswer({ failed }), 'example.com').title).toBe('Upload partly imported');
    const allFailed = summariseUpload(
      uploadAnswer({ imported: 0, failed, reports: [makeFailedImport()] }),
      'example.com',
    );
    expect(allFailed.title).toBe('Upload failed');
    expect(allFailed.destructive).toBe(true);
    expect(allFailed.counts).toBe('0 imported, 0 duplicates skipped, 1 failed.');
  });

  it('names at most five failed files and the other domains imported', () => {
    const failed = Array.from({ length: 7 }, (_, i) => ({ fileName: `f${i}.xml`, error: 'Not XML' }));
    const summary = summariseUpload(
      uploadAnswer({
        imported: 2,
        failed,
        reports: [makeReport(), makeReport({ id: 2, domain: 'other.example.org' })],
      }),
      'example.com',
    );
    expect(summary.failures.map((f) => f.fileName)).toEqual(['f0.xml', 'f1.xml', 'f2.xml', 'f3.xml', 'f4.xml']);
    expect(summary.moreFailures).toBe(2);
    expect(summary.otherDomains).toEqual(['other.example.org']);
    expect(summary.notAddedDomains).toEqual([]);
    // With the user's domains known, those that are not theirs are told apart.
    const known = summariseUpload(
      uploadAnswer({
        reports: [makeReport({ domain: 'mine.example.org' }), makeReport({ id: 2, domain: 'example.de' })],
      }),
      'example.com',
      ['example.com', 'mine.example.org'],
    );
    expect([known.otherDomains, known.notAddedDomains]).toEqual([['mine.example.org'], ['example.de']]);
  });

  it('says once per file what was ignored to read it', () => {
    const warning = 'Ignored 2 stray bytes after the end of the gzip data, as gzip does.';
    const summary = summariseUpload(
      uploadAnswer({
        warnings: [
          { fileName: 'mimecast.xml.gz', warning },
          { fileName: 'mimecast.xml.gz', warning },
        ],
      }),
      'example.com',
    );
    expect(summary.warnings).toEqual([{ fileName: 'mimecast.xml.gz', warning }]);
    expect(summariseUpload(uploadAnswer(), 'example.com').warnings).toEqual([]);
  });
});

describe('RFC 9990 report fields in words', () => {
  const dkim = (selector: string | null, humanResult: string | null = null) => ({
    domain: 'brand.example',
    selector,
    result: 'fail',
    humanResult,
  });
  const spf = (humanResult: string | null = null) => ({
    domain: 'bounce.brand.example',
    scope: 'mfrom',
    result: 'softfail',
    humanResult,
  });

  const cases: Array<[string, Pick<DmarcRecord, 'dkimAuth' | 'spfAuth'>, DmarcReport['schema'], string]> = [
    [
      'RFC 9990 3.1.1.12: the DKIM selector beside the domain',
      { dkimAuth: [dkim('s2025')], spfAuth: [] },
      'rfc9990',
      'dkim brand.example (s2025) fail',
    ],
    [
      'RFC 9990 3.1.1.12: a required selector the report left out is named as missing',
      { dkimAuth: [dkim(null)], spfAuth: [] },
      'rfc9990',
      'dkim brand.example (no selector) fail',
    ],
    [
      'RFC 7489: the selector was optional, so its absence says nothing',
      { dkimAuth: [dkim(null)], spfAuth: [] },
      'rfc7489',
      'dkim brand.example fail',
    ],
    [
      'RFC 9990 3.1.1.12 and 3.1.1.13: human_result after the result',
      { dkimAuth: [dkim('s1', 'body hash did not verify')], spfAuth: [spf('198.51.100.20 is not listed')] },
      'rfc9990',
      'dkim brand.example (s1) fail: "body hash did not verify"; spf bounce.brand.example (mfrom) softfail: "198.51.100.20 is not listed"',
    ],
    ['no results at all', { dkimAuth: [], spfAuth: [] }, 'rfc9990', '–'],
  ];
  it.each(cases)('%s', (_clause, record, schema, text) => {
    expect(authResultsText(record, schema)).toBe(text);
  });

  it('RFC 9990 3.1.1.2: names the schema and version a report follows, nothing for reports stored before it was kept', () => {
    expect(reportFormatText(makeReport({ schema: 'rfc9990', version: '1.0' }))).toBe(
      'RFC 9990 (DMARCbis), version 1.0',
    );
    expect(reportFormatText(makeReport({ schema: 'rfc7489', version: null }))).toBe('RFC 7489');
    expect(reportFormatText(makeReport({ schema: null, version: null }))).toBeNull();
  });

  it('RFC 9990 3.1.1.5: says how the receiver found the policy record', () => {
    expect(discoveryText('treewalk')).toBe('DNS tree walk (RFC 9989)');
    expect(discoveryText('psl')).toBe('public suffix list (RFC 7489)');
    expect(discoveryText('guess')).toBe('guess');
  });

  it('RFC 9990 3.1.1.9: lists the pass disposition as the others', () => {
    expect(dispositionsText({ pass: 40, reject: 3 })).toBe('pass 40, reject 3');
  });
});

describe('unauthenticatedCountText', () => {
  it('says one report, or how many, are kept apart', () => {
    expect(unauthenticatedCountText(1)).toBe(
      '1 unauthenticated report is kept apart: it is not counted in your figures.',
    );
    expect(unauthenticatedCountText(1200)).toBe(
      '1,200 unauthenticated reports are kept apart: they are not counted in your figures.',
    );
  });
});
