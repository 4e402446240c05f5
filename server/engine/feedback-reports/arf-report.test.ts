import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../dmarc/fixtures';
import { RFC9991_EXAMPLE_REPORT } from '../../dmarc/rfc9991-example.test-support';
import { isComplaintReport, readFeedbackLoopReport } from './arf-report';

/*
 * Real feedback loop reports, each named in fixtures/README.md with its source: the RFC 5965 Appendix B examples,
 * and 2013 reports of Yahoo's CFL, AOL, Microsoft's JMRP (Hotmail) and Fastmail (through Return Path) that the
 * MantaMTA project kept as test fixtures (github.com/AidanDelaney/MantaMTA, MantaCoreTests/FeedbackLoopEmails.cs).
 */

const sample = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const read = (name: string) => readFeedbackLoopReport(sample(name));

describe('reading a feedback loop report (ARF, RFC 5965)', () => {
  it('RFC 5965 B.2 (complete example): every field of the ARF part, and the original headers above its stray empty line', () => {
    const report = read('rfc5965-b2-complete.eml');
    expect(report).toMatchObject({
      hasArfPart: true,
      feedbackType: 'abuse',
      userAgent: 'SomeGenerator/1.0',
      version: '1',
      originalMailFrom: 'somespammer@example.net',
      originalRcptTo: ['user@example.com'],
      arrivalDate: new Date('2005-03-08T18:00:00Z'),
      sourceIp: '192.0.2.1',
      reportedDomains: ['example.net'],
      reportedUris: ['http://example.net/earn_money.html', 'mailto:user@example.com'],
      reportFrom: 'abusedesk@example.com',
      notes: [],
    });
    // The RFC prints an empty line after the original's Received field: what follows is its body, Message-ID too.
    expect(report.original).toEqual({
      from: 'somespammer@example.net',
      fromDomain: 'example.net',
      messageId: null,
      date: null,
      dkimDomains: [],
      recipient: null,
    });
  });

  it('RFC 5965 B.1 (simple example): the three required fields, and the original message’s headers', () => {
    const report = read('rfc5965-b1-simple.eml');
    expect(report).toMatchObject({
      feedbackType: 'abuse',
      userAgent: 'SomeGenerator/1.0',
      version: '1',
      originalRcptTo: [],
      arrivalDate: null,
      sourceIp: null,
    });
    expect(report.original).toEqual({
      from: 'somespammer@example.net',
      fromDomain: 'example.net',
      messageId: '8787KJKJ3K4J3K4J3K4J3.mail@example.net',
      date: new Date('2004-09-02T17:31:03Z'),
      dkimDomains: [],
      // "To: <Undisclosed Recipients>" names no address.
      recipient: null,
    });
  });

  it('Yahoo CFL: the recipient, Received-Date for Arrival-Date, and the DKIM d= of the original', () => {
    const report = read('yahoo-cfl.eml');
    expect(report).toMatchObject({
      feedbackType: 'abuse',
      userAgent: 'Yahoo!-Mail-Feedback/1.0',
      originalMailFrom: 'return-some.user=yahoo.co.uk-1@colony101.co.uk',
      originalRcptTo: ['some.user@yahoo.co.uk'],
      // Received-Date: Sun, 24 Feb 2013 13:44:08 PST
      arrivalDate: new Date('2013-02-24T21:44:08Z'),
      sourceIp: null,
      reportedDomains: ['colony101.co.uk'],
      reportFrom: 'feedback@arf.mail.yahoo.com',
    });
    expect(report.original).toMatchObject({
      from: 'info@colony101.co.uk',
      fromDomain: 'colony101.co.uk',
      messageId: 'SNT31u2ZN9KAy4MoSn00009f516@snt3.net',
      dkimDomains: ['colony101.co.uk'],
    });
  });

  it('AOL: Source-IP, and the redacted recipient as the original’s To names it', () => {
    const report = read('aol-scomp.eml');
    expect(report).toMatchObject({
      userAgent: 'AOL SComp',
      originalRcptTo: [],
      sourceIp: '83.222.233.165',
      arrivalDate: new Date('2013-10-21T09:05:40Z'),
      // AOL names the sending host, not the sender's domain: attribution goes by the original's From and DKIM d=.
      reportedDomains: ['mta1-165.smtp1.snt0.net'],
    });
    expect(report.original).toMatchObject({
      from: 'tam@snt1.net',
      messageId: '00000000000000000000000000000000@snt1.net',
      dkimDomains: ['snt1.net'],
      recipient: 'redacted@aol.com',
    });
  });

  it('Fastmail through Return Path: Original-Message-ID in the ARF part, and a quoted display name in Original-Mail-From', () => {
    const report = read('fastmail-returnpath.eml');
    expect(report).toMatchObject({
      feedbackType: 'abuse',
      originalMailFrom: 'greatbritishbusinessshow@snt1.net',
      originalRcptTo: ['3474ab6864477b6e234bbf21feead499@fastmail.co.uk'],
      arrivalDate: new Date('2013-09-27T16:08:16Z'),
      sourceIp: '83.222.233.166',
      originalMessageId: '2013.09.26T104634408.b@snt1.net',
      reportFrom: 'feedbackloop@fbl.fastmail.fm',
    });
    expect(report.original?.messageId).toBe('2013.09.26T104634408.b@snt1.net');
  });

  it('Microsoft JMRP without an ARF part: reads the attached original’s headers, JMRP’s recipient field, and says so', () => {
    const report = read('hotmail-jmrp-no-arf.eml');
    expect(report).toMatchObject({
      hasArfPart: false,
      feedbackType: null,
      originalRcptTo: [],
      sourceIp: null,
      reportFrom: 'staff@hotmail.com',
      notes: [
        'It has no ARF part (message/feedback-report): only the headers of the original message it carries were read.',
      ],
    });
    expect(report.original).toEqual({
      from: 'spacestation@snt1.net',
      fromDomain: 'snt1.net',
      messageId: '2013.09.25T140057895.22@snt1.net',
      date: new Date('2013-09-25T13:00:44Z'),
      dkimDomains: ['snt1.net'],
      recipient: 'r.gerardo@hotmail.co.uk',
    });
  });

  it('gives the same digest to two copies of one report, and another to another report', () => {
    expect(read('yahoo-cfl.eml').digest).toBe(read('yahoo-cfl.eml').digest);
    expect(read('yahoo-cfl.eml').digest).not.toBe(read('aol-scomp.eml').digest);
  });
});

describe('telling a complaint report from other mail in a shared mailbox', () => {
  it('takes the loops’ ARF complaints', () => {
    for (const name of ['rfc5965-b1-simple.eml', 'rfc5965-b2-complete.eml', 'yahoo-cfl.eml', 'aol-scomp.eml'])
      expect(isComplaintReport(sample(name)), name).toBe(true);
    expect(isComplaintReport(sample('fastmail-returnpath.eml'))).toBe(true);
  });

  it('leaves DMARC failure reports to the DMARC mailbox, with or without their ARF part', () => {
    expect(isComplaintReport(Buffer.from(RFC9991_EXAMPLE_REPORT))).toBe(false);
    expect(isComplaintReport(fixture('failure/dmarc_ruf_report_linkedin.eml'))).toBe(false);
    expect(isComplaintReport(fixture('failure/exim_plain_text_only_no_arf_part.eml'))).toBe(false);
  });

  it('cannot tell a complaint without an ARF part (JMRP’s attached original) from other mail', () => {
    expect(isComplaintReport(sample('hotmail-jmrp-no-arf.eml'))).toBe(false);
  });
});
