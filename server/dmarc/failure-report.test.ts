import { describe, expect, it } from 'vitest';
import { describeFailureReport, MAX_ARF_BYTES, readFeedbackReport, type FailureReport } from './failure-report';

/*
 * The ARF part (RFC 5965 message/feedback-report) of a failure report, field by field, with the
 * fields RFC 9991 section 4 ("Reporting Format Update") adds to RFC 6591.
 */

/** An ARF part of an auth-failure report with the fields given, one per line, CRLF as on the wire. */
const arf = (...fields: string[]) =>
  Buffer.from(['Feedback-Type: auth-failure', 'Version: 1', ...fields, ''].join('\r\n'));

/** The ARF part of RFC 9991's example report (appendix A). */
const RFC9991_EXAMPLE_ARF = arf(
  'User-Agent: DMARC-Filter/1.2.3',
  'Auth-Failure: dmarc',
  'Authentication-Results: gen.example;',
  '  dmarc=fail header.from=consumer.example',
  'Identity-Alignment: dkim',
  'DKIM-Domain: consumer.example',
  'DKIM-Identity: @consumer.example',
  'DKIM-Selector: epsilon',
  'Original-Envelope-Id: 65E1A3F0A0',
  'Original-Mail-From: author=gen.example@forwarder.example',
  'Source-IP: 192.0.2.2',
  'Source-Port: 12345',
  'Reported-Domain: consumer.example',
);

describe('readFeedbackReport: Identity-Alignment by the ABNF of RFC 9991 section 4 item 2', () => {
  it.each([
    ['RFC 9991 4 item 2: one method', 'Identity-Alignment: dkim', { methods: ['dkim'] }],
    ['RFC 9991 4 item 2: the other method', 'Identity-Alignment: spf', { methods: ['spf'] }],
    ['RFC 9991 4 item 2: both, in either order', 'Identity-Alignment: spf,dkim', { methods: ['spf', 'dkim'] }],
    [
      'RFC 9991 4 item 2: CFWS around the keywords and commas',
      'Identity-Alignment: (failed) dkim (relaxed) , spf ',
      { methods: ['dkim', 'spf'] },
    ],
    ['RFC 9991 4 item 2: "none"', 'Identity-Alignment: none', { methods: [] }],
    ['RFC 5234 2.3: the literals are case-insensitive', 'Identity-Alignment: DKIM, Spf', { methods: ['dkim', 'spf'] }],
    ['RFC 9991 4 item 2: each method at most once', 'Identity-Alignment: dkim, dkim', { unreadable: 'dkim, dkim' }],
    ['RFC 9991 4 item 2: only dkim and spf are methods', 'Identity-Alignment: arc', { unreadable: 'arc' }],
    ['RFC 9991 4 item 2: "none" stands alone', 'Identity-Alignment: none, dkim', { unreadable: 'none, dkim' }],
    ['RFC 9991 4 item 2: a list has no empty members', 'Identity-Alignment: dkim,,spf', { unreadable: 'dkim,,spf' }],
    ['RFC 9991 4 item 2: the field is not empty', 'Identity-Alignment:', { unreadable: '' }],
    [
      'RFC 5322 3.2.2: a comment that is not closed',
      'Identity-Alignment: dkim (aligned',
      { unreadable: 'dkim (aligned' },
    ],
    ['RFC 5322 3.2.2: a comment does not join two words', 'Identity-Alignment: dk(x)im', { unreadable: 'dk(x)im' }],
  ])('%s: "%s"', (_clause, field, alignment) => {
    expect(readFeedbackReport(arf(field)).identityAlignment).toEqual(alignment);
  });

  it('RFC 9991 4 item 2: the field appears once; two are not guessed between', () => {
    expect(readFeedbackReport(arf('Identity-Alignment: dkim', 'Identity-Alignment: spf')).identityAlignment).toEqual({
      unreadable: 'dkim; spf',
    });
  });

  it('RFC 6591 era: a report without the field has no alignment to tell', () => {
    expect(readFeedbackReport(arf('Auth-Failure: dmarc')).identityAlignment).toBeNull();
  });
});

describe('readFeedbackReport: the other fields', () => {
  it('RFC 9991 appendix A: the example report', () => {
    expect(readFeedbackReport(RFC9991_EXAMPLE_ARF)).toEqual({
      feedbackType: 'auth-failure',
      authFailures: ['dmarc'],
      identityAlignment: { methods: ['dkim'] },
      reportedDomains: ['consumer.example'],
      sourceIp: '192.0.2.2',
      dkimDomain: 'consumer.example',
      dkimSelector: 'epsilon',
      originalMailFromDomain: 'forwarder.example',
      arrivalDate: null,
    });
  });

  it.each<[string, string[], Partial<FailureReport>]>([
    ['RFC 9991 4 item 3: Auth-Failure "dmarc"', ['Auth-Failure: dmarc'], { authFailures: ['dmarc'] }],
    [
      'RFC 6591 3.1: the DKIM and SPF failure types, lower-cased',
      ['Auth-Failure: Signature', 'Auth-Failure: spf (softfail)'],
      { authFailures: ['signature', 'spf'] },
    ],
    ['RFC 5965 3.1: Feedback-Type', [], { feedbackType: 'auth-failure' }],
    [
      'RFC 5965 3.2: Reported-Domain may appear more than once, lower-cased, without a root dot',
      ['Reported-Domain: Brand.Example.', 'Reported-Domain: mail.brand.example', 'Reported-Domain: brand.example'],
      { reportedDomains: ['brand.example', 'mail.brand.example'] },
    ],
    [
      'RFC 5965 3.2: a Reported-Domain that is not a domain name is not read',
      ['Reported-Domain: <script>', 'Reported-Domain: a b.example'],
      { reportedDomains: [] },
    ],
    ['RFC 5965 3.2: Source-IP, IPv4', ['Source-IP: 192.0.2.7 (client)'], { sourceIp: '192.0.2.7' }],
    ['RFC 5965 3.2: Source-IP, IPv6', ['Source-IP: 2001:db8::25'], { sourceIp: '2001:db8::25' }],
    [
      'RFC 5965 3.2: a Source-IP that is not an address is not read',
      ['Source-IP: mail.example.net'],
      { sourceIp: null },
    ],
    [
      'RFC 9991 4 item 1: DKIM-Domain and DKIM-Selector',
      ['DKIM-Domain: Brand.Example', 'DKIM-Selector: s2025._sub'],
      { dkimDomain: 'brand.example', dkimSelector: 's2025._sub' },
    ],
    [
      'RFC 5965 3.2: Original-Mail-From in angle brackets: only its domain is kept',
      ['Original-Mail-From: <bounce+x=y@Mail.Brand.Example>'],
      { originalMailFromDomain: 'mail.brand.example' },
    ],
    [
      'RFC 5965 3.2: Original-Mail-From empty or the null reverse-path',
      ['Original-Mail-From: <>'],
      { originalMailFromDomain: null },
    ],
    [
      'RFC 5965 3.2: Arrival-Date, an RFC 5322 date-time',
      ['Arrival-Date: Mon, 01 Oct 2018 11:20:27 +0200 (CEST)'],
      { arrivalDate: new Date('2018-10-01T09:20:27Z') },
    ],
    [
      'RFC 5965 3.2: an Arrival-Date that is not a date is not read',
      ['Arrival-Date: yesterday'],
      { arrivalDate: null },
    ],
    [
      'RFC 5322 2.2.3: a folded field is unfolded',
      ['Reported-Domain:', '  folded.example', 'Source-IP:', '\t192.0.2.9'],
      { reportedDomains: ['folded.example'], sourceIp: '192.0.2.9' },
    ],
    [
      'RFC 5322 2.2: field names are case-insensitive',
      ['reported-domain: lower.example', 'SOURCE-IP: 192.0.2.10'],
      { reportedDomains: ['lower.example'], sourceIp: '192.0.2.10' },
    ],
  ])('%s', (_clause, fields, expected) => {
    expect(readFeedbackReport(arf(...fields))).toMatchObject(expected);
  });

  it(`reads only the first ${MAX_ARF_BYTES / 1024} KiB of the part: an ARF part is a few hundred bytes, a hostile one is not read further`, () => {
    const padding = Array.from({ length: 2000 }, (_, i) => `X-Padding-${i}: ${'x'.repeat(40)}`);
    const report = readFeedbackReport(
      arf('Reported-Domain: early.example', ...padding, 'Reported-Domain: late.example'),
    );
    expect(report.reportedDomains).toEqual(['early.example']);
  });
});

describe('describeFailureReport: what the user reads', () => {
  it('RFC 9991 appendix A: names the reported domain, the source IP, the envelope sender domain and what failed to align', () => {
    expect(describeFailureReport(readFeedbackReport(RFC9991_EXAMPLE_ARF))).toBe(
      'The e-mail is a DMARC failure report (RFC 9991) for consumer.example from 192.0.2.2 (envelope sender forwarder.example): DKIM did not authenticate an aligned identity (Identity-Alignment: dkim); the DKIM signature checked was d=consumer.example s=epsilon. Failure reports are not imported here; the aggregate reports (rua=) count such failures by source.',
    );
  });

  it.each([
    [
      'RFC 9991 4 item 2: both methods',
      arf('Auth-Failure: dmarc', 'Identity-Alignment: spf,dkim', 'Reported-Domain: brand.example'),
      'The e-mail is a DMARC failure report (RFC 9991) for brand.example: neither SPF nor DKIM authenticated an aligned identity (Identity-Alignment: spf, dkim).',
    ],
    [
      'RFC 9991 4 item 2: "none"',
      arf('Auth-Failure: dmarc', 'Identity-Alignment: none', 'Reported-Domain: brand.example'),
      'The e-mail is a DMARC failure report (RFC 9991) for brand.example: it names no mechanism that failed to authenticate an aligned identity (Identity-Alignment: none).',
    ],
    [
      'RFC 9991 4 item 2: anything else is unreadable, not guessed',
      arf('Auth-Failure: dmarc', 'Identity-Alignment: dkim dkim', 'Reported-Domain: brand.example'),
      'The e-mail is a DMARC failure report (RFC 9991) for brand.example: its Identity-Alignment field ("dkim dkim") is unreadable (RFC 9991 allows "none", or dkim and spf each at most once, separated by commas).',
    ],
    [
      'RFC 9991 4 item 3: Auth-Failure "dmarc" without Identity-Alignment (RFC 7489 era)',
      arf(
        'Auth-Failure: dmarc',
        'Source-IP: 10.10.10.10',
        'Reported-Domain: example.com',
        'Arrival-Date: Tue, 30 Apr 2019 02:09:00 +0000',
      ),
      'The e-mail is a DMARC failure report (RFC 9991) for example.com from 10.10.10.10 (arrived 2019-04-30 02:09 UTC): SPF or DKIM did not produce an aligned identity (Auth-Failure: dmarc).',
    ],
    [
      'RFC 6591 3.1: a DKIM failure report',
      arf(
        'Auth-Failure: bodyhash',
        'DKIM-Domain: brand.example',
        'DKIM-Selector: s1',
        'Reported-Domain: brand.example',
      ),
      "The e-mail is an authentication failure report (RFC 6591) for brand.example: a DKIM signature's body hash did not match the body (Auth-Failure: bodyhash); the DKIM signature checked was d=brand.example s=s1.",
    ],
    [
      'RFC 6591 3.1: an SPF failure report',
      arf('Auth-Failure: spf', 'Reported-Domain: brand.example'),
      'The e-mail is an authentication failure report (RFC 6591) for brand.example: SPF did not pass (Auth-Failure: spf).',
    ],
    [
      'RFC 6591 3.1: a failure type it does not define is named as written',
      arf('Auth-Failure: arc', 'Reported-Domain: brand.example'),
      'The e-mail is an authentication failure report (RFC 6591) for brand.example: Auth-Failure: arc.',
    ],
    [
      'RFC 5965: a report that says nothing of what failed',
      arf(),
      'The e-mail is an authentication failure report (RFC 6591): it does not say what failed.',
    ],
  ])('%s', (_clause, part, sentence) => {
    expect(describeFailureReport(readFeedbackReport(part))).toBe(
      `${sentence} Failure reports are not imported here; the aggregate reports (rua=) count such failures by source.`,
    );
  });

  it('RFC 5965 3.1: an ARF report of another feedback type is named as such', () => {
    const abuse = Buffer.from('Feedback-Type: abuse\r\nVersion: 1\r\nUser-Agent: SomeGenerator/1.0\r\n');
    expect(describeFailureReport(readFeedbackReport(abuse))).toBe(
      'The e-mail is a feedback report of type "abuse" (RFC 5965), not a DMARC report; feedback reports are not imported here.',
    );
  });
});
