import { describe, expect, it } from 'vitest';
import type { AuthenticationResults } from './authentication';
import { brandSignature } from './authentication.test-support';
import {
  AUTH_DEDUCTIONS,
  authenticationFindings,
  authenticationNotChecked,
  authenticationUnavailable,
} from './authentication-findings';
import type { AnalysisFinding } from './finding';
import { scoreFindings, verdict } from './score';

type Signature = AuthenticationResults['dkim'][number];

const goodSignature: Signature = { ...brandSignature, comment: null };

/** DMARC's part of the results for brand-mail.com: the record published for `policy` (none when null), and what aligned. */
const dmarc = (result: string, policy: string | null, spfAligned = false, dkimAligned = spfAligned) => ({
  result,
  domain: 'brand-mail.com',
  policy,
  record: policy ? `v=DMARC1; p=${policy}` : null,
  spfAligned,
  dkimAligned,
});

/** What analyzeAuthentication returns for a well-set-up sender (see authentication.test.ts). */
function results(overrides: Partial<AuthenticationResults> = {}): AuthenticationResults {
  return {
    spf: {
      result: 'pass',
      domain: 'brand-mail.com',
      record: 'v=spf1 ip4:192.0.2.10 -all',
      comment: 'mx.inbox.localhost: domain of bounce@brand-mail.com designates 192.0.2.10 as permitted sender',
    },
    dkim: [goodSignature],
    dmarc: dmarc('pass', 'reject', true),
    arc: { result: 'none', instance: 0 },
    bimi: { result: 'none', logo: null, comment: null },
    authenticationResults: 'Authentication-Results: mx.inbox.localhost; dkim=pass; spf=pass; dmarc=pass',
    headerFrom: ['news@brand-mail.com'],
    fromHeaderFields: 1,
    ...overrides,
  };
}

const problems = (findings: AnalysisFinding[]) => findings.filter((f) => f.deduction > 0);
const byId = (findings: AnalysisFinding[], id: string) => findings.find((f) => f.id === id);
const deductionOf = (id: keyof typeof AUTH_DEDUCTIONS) => AUTH_DEDUCTIONS[id].deduction;

describe('authenticationFindings', () => {
  it('finds nothing to deduct for aligned SPF, DKIM (2048-bit) and DMARC at p=reject', () => {
    const findings = authenticationFindings(results());
    expect(problems(findings)).toEqual([]);
    expect(findings.map((f) => [f.id, f.severity])).toEqual([
      ['authentication.spf-pass', 'pass'],
      ['authentication.dkim-pass', 'pass'],
      ['authentication.dmarc-pass', 'pass'],
      ['authentication.bimi', 'info'],
    ]);
    expect(byId(findings, 'authentication.dmarc-pass')?.title).toBe(
      'DMARC passes for brand-mail.com (aligned SPF and DKIM)',
    );
    expect(scoreFindings(findings).score).toBe(10);
  });

  it("gives every finding the authentication category, a fix with every deduction, the table's amounts, and unique ids", () => {
    const broken = results({
      spf: {
        result: 'softfail',
        domain: 'brand-mail.com',
        record: 'v=spf1 ~all',
        comment: 'mx: domain of transitioning x@brand-mail.com does not designate 203.0.113.66 as permitted sender',
      },
      dkim: [
        { ...goodSignature, keyBits: 1024, aligned: false, domain: 'esp-relay.net' },
        { ...goodSignature, result: 'neutral', comment: 'body hash did not verify' },
      ],
      dmarc: {
        result: 'fail',
        domain: 'brand-mail.com',
        policy: 'none',
        record: 'v=DMARC1; p=none',
        spfAligned: false,
        dkimAligned: false,
      },
      arc: { result: 'pass', instance: 1 },
    });
    const findings = authenticationFindings(broken);
    for (const f of findings) {
      expect(f.category).toBe('authentication');
      if (f.deduction > 0) expect(f.fix).toBeTruthy();
      if (f.severity !== 'pass')
        expect(f.deduction).toBe(AUTH_DEDUCTIONS[f.id as keyof typeof AUTH_DEDUCTIONS].deduction);
    }
    expect(new Set(findings.map((f) => f.id)).size).toBe(findings.length);
  });

  describe('SPF', () => {
    it.each([
      [
        'none',
        'authentication.spf-none',
        'Publish a TXT record at brand-mail.com: "v=spf1 include:<your ESP\'s SPF domain> -all"',
      ],
      ['fail', 'authentication.spf-fail', 'ip4:203.0.113.66'],
      ['softfail', 'authentication.spf-softfail', 'ip4:203.0.113.66'],
      ['neutral', 'authentication.spf-neutral', 'rather than ?all'],
      ['permerror', 'authentication.spf-permerror', 'at most 10 DNS-querying terms'],
      ['temperror', 'authentication.spf-temperror', 'answer TXT queries reliably'],
    ] as const)('%s becomes %s with a concrete fix', (result, id, fixPart) => {
      const comment = `mx: domain of bounce@brand-mail.com does not designate 203.0.113.66 as permitted sender`;
      const findings = authenticationFindings(
        results({
          spf: { result, domain: 'brand-mail.com', record: result === 'none' ? null : 'v=spf1 -all', comment },
        }),
      );
      const finding = byId(findings, id);
      expect(finding).toMatchObject({ severity: AUTH_DEDUCTIONS[id].severity, deduction: deductionOf(id) });
      expect(finding?.fix).toContain(fixPart);
      expect(problems(findings)).toEqual([finding]);
    });

    it("names the IP of a pass and of a neutral result from mailauth's comment", () => {
      const neutral = authenticationFindings(
        results({
          spf: {
            result: 'neutral',
            domain: 'brand-mail.com',
            record: 'v=spf1 ?all',
            comment: 'mx: 198.51.100.7 is neither permitted nor denied by domain of b@brand-mail.com',
          },
        }),
      );
      expect(byId(neutral, 'authentication.spf-neutral')?.title).toBe('SPF is neutral about 198.51.100.7');
    });

    it('says a pass through a record that allows every IP proves nothing', () => {
      const spf = (record: string) => ({
        result: 'pass',
        domain: 'brand-mail.com',
        record,
        comment: 'mx: domain of b@brand-mail.com designates 198.51.100.7 as permitted sender',
      });
      for (const [record, term] of [
        ['v=spf1 +all', '+all'],
        ['v=spf1 include:_spf.esp.example all', 'all'],
        ['v=spf1 ip4:0.0.0.0/0 -all', 'ip4:0.0.0.0/0'],
      ]) {
        const findings = authenticationFindings(results({ spf: spf(record) }));
        expect(byId(findings, 'authentication.spf-pass')).toBeDefined();
        const finding = byId(findings, 'authentication.spf-allows-all');
        expect(finding).toMatchObject({
          severity: 'warning',
          deduction: 1,
          title: `The SPF pass proves nothing: brand-mail.com allows every IP (${term})`,
        });
        expect(finding?.fix).toBe(
          `Replace ${term} with -all or ~all after listing your senders: "v=spf1 include:<your ESP's SPF domain> ip4:198.51.100.7 -all".`,
        );
        expect(problems(findings)).toEqual([finding]);
      }
      // Terms after the first all are never reached.
      for (const record of ['v=spf1 ip4:192.0.2.10 -all', 'v=spf1 ~all +all', 'v=spf1 ip4:192.0.2.0/24 ?all']) {
        expect(problems(authenticationFindings(results({ spf: spf(record) })))).toEqual([]);
      }
    });
  });

  describe('DKIM', () => {
    it('deducts for a message without a signature, whether mailauth reports none or a pseudo-signature', () => {
      const unsigned = {
        result: 'none',
        aligned: false,
        selector: null,
        algorithm: null,
        keyBits: null,
        comment: 'message not signed',
      } as unknown as Signature;
      for (const dkim of [[], [unsigned]]) {
        const findings = authenticationFindings(
          results({
            dkim,
            dmarc: dmarc('pass', 'reject', true, false),
          }),
        );
        expect(problems(findings).map((f) => f.id)).toEqual(['authentication.dkim-none']);
        expect(byId(findings, 'authentication.dkim-none')?.fix).toContain('<selector>._domainkey.brand-mail.com');
      }
    });

    it('explains a body changed after signing (fail, body hash)', () => {
      const findings = authenticationFindings(
        results({ dkim: [{ ...goodSignature, result: 'fail', comment: 'body hash did not verify' }] }),
      );
      const finding = byId(findings, 'authentication.dkim-fail');
      expect(finding).toMatchObject({
        severity: 'error',
        deduction: 2,
        title: 'The DKIM signature by brand-mail.com does not verify',
      });
      expect(finding?.detail).toContain('the body changed after it was signed');
      expect(finding?.fix).toContain('Sign as the very last step');
    });

    it('tells a missing key and a bad signature apart', () => {
      const noKey = byId(
        authenticationFindings(results({ dkim: [{ ...goodSignature, result: 'neutral', comment: 'no key' }] })),
        'authentication.dkim-fail',
      );
      expect(noKey?.fix).toContain(
        'TXT record at s1._domainkey.brand-mail.com: "v=DKIM1; k=rsa; p=<base64 public key>"',
      );
      const bad = byId(
        authenticationFindings(results({ dkim: [{ ...goodSignature, result: 'fail', comment: 'bad signature' }] })),
        'authentication.dkim-fail',
      );
      expect(bad?.fix).toContain('matches the public key at s1._domainkey.brand-mail.com');
    });

    it('names a revoked key (empty p=) as such, charged as a signature that does not verify', () => {
      const findings = authenticationFindings(
        results({ dkim: [{ ...goodSignature, result: 'fail', comment: 'key revoked (empty p=)' }] }),
      );
      expect(problems(findings)).toEqual([
        expect.objectContaining({
          id: 'authentication.dkim-fail',
          severity: 'error',
          deduction: deductionOf('authentication.dkim-fail'),
          title: 'The DKIM key for selector s1._domainkey.brand-mail.com is revoked (empty p=)',
        }),
      ]);
      expect(byId(findings, 'authentication.dkim-fail')?.detail).toContain(
        'the key at s1._domainkey.brand-mail.com is revoked (empty p=)',
      );
      expect(byId(findings, 'authentication.dkim-fail')?.fix).toContain('under a new selector');
      // One root cause, one charge: beside a body-hash failure the revoked key costs nothing more.
      const both = authenticationFindings(
        results({
          dkim: [
            { ...goodSignature, result: 'fail', comment: 'body hash did not verify' },
            { ...goodSignature, selector: 'old', result: 'fail', comment: 'key revoked (empty p=)' },
          ],
        }),
      );
      expect(problems(both).map((f) => [f.id, f.deduction])).toEqual([['authentication.dkim-fail', 2]]);
      expect(byId(both, 'authentication.dkim-extra-fail')?.detail).toContain(
        'old._domainkey.brand-mail.com is revoked',
      );
    });

    it('treats a key under 1024 bits (mailauth: policy) as an error and 1024 bits as a warning', () => {
      const weak = authenticationFindings(results({ dkim: [{ ...goodSignature, result: 'policy', keyBits: null }] }));
      expect(byId(weak, 'authentication.dkim-weak-key')).toMatchObject({ severity: 'error', deduction: 2 });
      expect(byId(weak, 'authentication.dkim-weak-key')?.fix).toContain('2048-bit');
      const medium = authenticationFindings(results({ dkim: [{ ...goodSignature, keyBits: 1024 }] }));
      expect(problems(medium)).toEqual([
        expect.objectContaining({
          id: 'authentication.dkim-1024-bit-key',
          severity: 'warning',
          deduction: 0.5,
          title: 'The DKIM key of brand-mail.com is only 1024 bits',
        }),
      ]);
    });

    it("deducts for DKIM that passes only for another domain (the ESP's)", () => {
      const findings = authenticationFindings(
        results({
          dkim: [{ ...goodSignature, domain: 'esp-relay.net', aligned: false }],
          dmarc: dmarc('pass', 'reject', true, false),
        }),
      );
      expect(problems(findings)).toEqual([
        expect.objectContaining({
          id: 'authentication.dkim-not-aligned',
          deduction: 1,
          title: 'DKIM passes only for esp-relay.net, not for brand-mail.com',
        }),
      ]);
      expect(byId(findings, 'authentication.dkim-not-aligned')?.fix).toContain('d=brand-mail.com');
    });

    it("uses the signature's own alignment when there is no DMARC record to evaluate it", () => {
      const findings = authenticationFindings(
        results({
          dmarc: dmarc('none', null),
        }),
      );
      expect(problems(findings).map((f) => f.id)).toEqual(['authentication.dmarc-none']);
    });

    it('does not charge a failing signature when another verifies, and charges several failures once', () => {
      const broken = { ...goodSignature, domain: 'esp-relay.net', result: 'fail', comment: 'bad signature' };
      const beside = authenticationFindings(results({ dkim: [goodSignature, broken] }));
      expect(problems(beside)).toEqual([]);
      expect(byId(beside, 'authentication.dkim-extra-fail')).toMatchObject({ severity: 'info', deduction: 0 });
      expect(byId(beside, 'authentication.dkim-extra-fail')?.detail).toContain('Another signature verifies');

      const twoBroken = authenticationFindings(
        results({ dkim: [{ ...goodSignature, result: 'temperror', comment: 'DNS failure: ESERVFAIL' }, broken] }),
      );
      expect(problems(twoBroken).map((f) => [f.id, f.deduction])).toEqual([['authentication.dkim-fail', 2]]);
      expect(byId(twoBroken, 'authentication.dkim-extra-fail')?.title).toBe(
        'A second DKIM signature, by brand-mail.com, does not verify',
      );
    });
  });

  describe('DMARC', () => {
    it('asks for a record when there is none', () => {
      const finding = byId(
        authenticationFindings(results({ dmarc: dmarc('none', null) }), 'dmarc@mx.inbox.localhost'),
        'authentication.dmarc-none',
      );
      expect(finding).toMatchObject({ severity: 'error', deduction: 1.5 });
      // The report address every screen gives: dmarc@ on our inbound domain.
      expect(finding?.fix).toContain('_dmarc.brand-mail.com: "v=DMARC1; p=none; rua=mailto:dmarc@mx.inbox.localhost"');
    });

    it('charges more for a failure the domain asks receivers to reject or quarantine', () => {
      expect(
        byId(authenticationFindings(results({ dmarc: dmarc('fail', 'none') })), 'authentication.dmarc-fail'),
      ).toMatchObject({ deduction: 1.5 });
      const enforced = byId(
        authenticationFindings(results({ dmarc: dmarc('fail', 'reject') })),
        'authentication.dmarc-fail-enforced',
      );
      expect(enforced).toMatchObject({ deduction: 2.5 });
      expect(enforced?.detail).toContain('asks receivers to reject such mail');
      expect(enforced?.fix).toContain('sign with d=brand-mail.com');
    });

    it('takes a token amount for p=none on a pass', () => {
      const findings = authenticationFindings(results({ dmarc: dmarc('pass', 'none', true) }));
      expect(problems(findings)).toEqual([
        expect.objectContaining({ id: 'authentication.dmarc-policy-none', severity: 'warning', deduction: 0.2 }),
      ]);
      expect(scoreFindings(findings).score).toBe(9.8);
    });

    it('charges a record receivers cannot use (RFC 9989 4.10.1: no valid p= and no rua=) as no DMARC, with the fix for p=', () => {
      const finding = byId(
        authenticationFindings(results({ dmarc: { ...dmarc('permerror', null), record: 'v=DMARC1; p=block' } })),
        'authentication.dmarc-permerror',
      );
      expect(finding).toMatchObject({
        severity: 'error',
        deduction: deductionOf('authentication.dmarc-none'),
        title: 'The DMARC record of brand-mail.com is not usable',
      });
      expect(finding?.detail).toContain('receivers apply no DMARC processing');
      expect(finding?.fix).toContain('p=none, p=quarantine or p=reject');
    });

    it('says what strict alignment asks when a subdomain’s signature or MAIL FROM does not align (RFC 9989 3.2.10.2)', () => {
      const strict = authenticationFindings(
        results({
          spf: { ...results().spf, domain: 'bounce.brand-mail.com' },
          dkim: [{ ...goodSignature, domain: 'mail.brand-mail.com', aligned: false }],
          dmarc: { ...dmarc('fail', 'reject'), adkim: 's', aspf: 's' },
        }),
      );
      const failure = byId(strict, 'authentication.dmarc-fail-enforced');
      expect(failure?.detail).toContain(
        'strict alignment (adkim=s, aspf=s): only brand-mail.com itself aligns, not its subdomains',
      );
      expect(failure?.fix).toBe(
        'Make SPF or DKIM pass aligned with brand-mail.com: sign with d=brand-mail.com exactly (adkim=s: a subdomain’s signature does not align), and/or send with a Return-Path (MAIL FROM) at brand-mail.com itself (aspf=s) whose SPF record lists the sending IP.',
      );
    });

    it('names where the policy was found when it is not the From domain’s own record (RFC 9989 4.10.1)', () => {
      const parent = authenticationFindings(
        results({
          dmarc: {
            ...dmarc('fail', 'quarantine'),
            domain: 'news.brand-mail.com',
            policyDomain: 'brand-mail.com',
            policySource: 'organizational-domain',
          },
        }),
      );
      expect(byId(parent, 'authentication.dmarc-fail-enforced')?.detail).toContain(
        'Record (at _dmarc.brand-mail.com, the Organizational Domain’s, found by the DNS tree walk): v=DMARC1; p=quarantine.',
      );
    });

    it('says when a policy of none comes from testing mode (t=y), not from p=none', () => {
      const testing = authenticationFindings(
        results({ dmarc: { ...dmarc('pass', 'none', true), record: 'v=DMARC1; p=quarantine; t=y', testing: true } }),
      );
      expect(byId(testing, 'authentication.dmarc-policy-none')).toMatchObject({
        title: 'The DMARC policy is in testing mode (t=y), applied as none',
        fix: 'Once your DMARC reports show all legitimate mail passes, remove t=y at _dmarc.brand-mail.com so receivers apply the policy as published.',
      });
    });

    it('reports a failed lookup and a From it cannot evaluate', () => {
      expect(
        byId(authenticationFindings(results({ dmarc: dmarc('temperror', null) })), 'authentication.dmarc-temperror'),
      ).toMatchObject({ deduction: 0.5 });
      const twoFroms = authenticationFindings(
        results({ dmarc: null, bimi: null, headerFrom: ['a@brand-mail.com', 'b@other.example'] }),
      );
      expect(byId(twoFroms, 'authentication.dmarc-not-evaluated')).toMatchObject({
        title: 'The From header has 2 addresses, so DMARC cannot be checked',
        deduction: 1,
      });
    });
  });

  describe('From header fields', () => {
    it('charges two From header fields as a blocking error, once, in place of the DMARC it prevents', () => {
      const findings = authenticationFindings(
        results({
          dmarc: null,
          bimi: null,
          headerFrom: ['news@brand-mail.com', 'ceo@brand-mail.com'],
          fromHeaderFields: 2,
        }),
      );
      expect(problems(findings)).toEqual([
        expect.objectContaining({
          id: 'authentication.from-fields',
          severity: 'error',
          deduction: 5.5,
          title: 'The message has 2 From header fields',
        }),
      ]);
      expect(byId(findings, 'authentication.from-fields')?.detail).toContain(
        'RFC 5322 (3.6) allows exactly one From field',
      );
      expect(byId(findings, 'authentication.from-fields')?.fix).toContain('exactly one From header field');
      // Blocking on its own: 10 - 5.5 is below the inbox cut-off (5).
      expect(scoreFindings(findings).score).toBe(4.5);
    });

    it('charges a message without a From field the same, and one field with several addresses less', () => {
      const none = authenticationFindings(results({ dmarc: null, bimi: null, headerFrom: [], fromHeaderFields: 0 }));
      expect(problems(none)).toEqual([
        expect.objectContaining({
          id: 'authentication.from-fields',
          deduction: 5.5,
          title: 'The message has no From header field',
        }),
      ]);
      const oneField = authenticationFindings(
        results({ dmarc: null, bimi: null, headerFrom: ['a@brand-mail.com', 'b@brand-mail.com'] }),
      );
      expect(problems(oneField).map((f) => [f.id, f.deduction])).toEqual([['authentication.dmarc-not-evaluated', 1]]);
      expect(byId(oneField, 'authentication.dmarc-not-evaluated')?.detail).toContain('Sender field');
    });
  });

  it('keeps ARC and BIMI informative', () => {
    const findings = authenticationFindings(
      results({
        arc: { result: 'fail', instance: 2 },
        bimi: { result: 'skipped', logo: null, comment: 'too lax DMARC policy' },
      }),
    );
    expect(byId(findings, 'authentication.arc')).toMatchObject({
      severity: 'info',
      deduction: 0,
      title: 'ARC chain: fail (2 hops)',
    });
    expect(byId(findings, 'authentication.bimi')).toMatchObject({
      severity: 'info',
      deduction: 0,
      detail: 'too lax DMARC policy',
    });
    expect(byId(findings, 'authentication.bimi')?.fix).toContain('default._bimi.brand-mail.com');
    const logo = authenticationFindings(
      results({ bimi: { result: 'pass', logo: 'https://brand-mail.com/logo.svg', comment: null } }),
    );
    expect(byId(logo, 'authentication.bimi-pass')).toMatchObject({
      severity: 'pass',
      detail: 'https://brand-mail.com/logo.svg',
    });
  });

  it('leaves "no DKIM, SPF fail, no DMARC" Poor but above 0 on authentication alone', () => {
    const findings = authenticationFindings(
      results({
        spf: {
          result: 'fail',
          domain: 'brand-mail.com',
          record: 'v=spf1 ip4:192.0.2.10 -all',
          comment: 'mx: domain of b@brand-mail.com does not designate 203.0.113.66 as permitted sender',
        },
        dkim: [],
        dmarc: dmarc('none', null),
        bimi: null,
      }),
    );
    const { score } = scoreFindings(findings);
    expect(score).toBe(4.5);
    expect(verdict(score)).toBe('Poor');
  });

  it('has findings for an authentication check that could not run and for a simulated message, costing nothing', () => {
    expect(authenticationUnavailable(new Error('boom'))).toMatchObject({
      id: 'authentication.unavailable',
      category: 'authentication',
      deduction: 0,
      detail: expect.stringContaining('boom'),
    });
    expect(authenticationNotChecked()).toMatchObject({
      id: 'authentication.not-checked',
      severity: 'info',
      deduction: 0,
    });
  });
});
