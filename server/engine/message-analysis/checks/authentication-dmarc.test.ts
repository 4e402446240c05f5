import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DnsResolver } from '../../../platform/dns/resolver';
import { dkimSigned } from '../../../test/dkim-signed';
import { startDnsServer, type TestDnsServer, loopbackResolver } from '../../../test/dns-server';
import { analyzeAuthentication, type SmtpEnvelope } from './authentication';
import { authenticationFindings } from './authentication-findings';

/*
 * DMARC of real received messages, DKIM-signed with keys published in the test zone: strict and
 * relaxed Identifier Alignment (RFC 9989 3.2.10) and policy discovery by the DNS tree walk (4.10).
 * mailauth 4 falls back to relaxed alignment in its strict branch and finds policies with the
 * Public Suffix List; these are the cases where that gave another verdict.
 */

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key = { TXT: [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`] };
const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const IP = '192.0.2.10';
const SPF = { TXT: [`v=spf1 ip4:${IP} -all`] };

const message = (from: string) =>
  Buffer.from(
    `From: Brand News <${from}>\r\nTo: test-1-abc@inbox.localhost\r\nSubject: Spring sale [TEST-1]\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nMessage-ID: <m1@example.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHello from the brand.\r\n`,
  );
const signedBy = (from: string, domain: string) => dkimSigned(message(from), { domain, selector: 's1', privatePem });
/** MAIL FROM at a domain whose SPF record lists the sending IP. */
const envelope = (mailFrom: string): SmtpEnvelope => ({ ip: IP, helo: 'mta1.example.test', mailFrom });
/** A MAIL FROM that proves nothing: its domain has no SPF record, so only DKIM can align. */
const NO_SPF = envelope('bounce@no-spf.test');

let dns: TestDnsServer;
let resolver: DnsResolver;
beforeAll(async () => {
  dns = await startDnsServer({
    // adkim=s / aspf=s against adkim=r / aspf=r, with a signing subdomain and a bounce subdomain each.
    '_dmarc.strict-brand.test': { TXT: ['v=DMARC1; p=reject; adkim=s; aspf=s; rua=mailto:dmarc@strict-brand.test'] },
    's1._domainkey.mail.strict-brand.test': key,
    's1._domainkey.strict-brand.test': key,
    'bounce.strict-brand.test': SPF,
    '_dmarc.relaxed-brand.test': { TXT: ['v=DMARC1; p=reject; adkim=r; aspf=r; rua=mailto:dmarc@relaxed-brand.test'] },
    's1._domainkey.mail.relaxed-brand.test': key,
    'bounce.relaxed-brand.test': SPF,
    // psd=n: mail.split-brand.test is its own Organizational Domain, so its parent's signature does not align.
    '_dmarc.mail.split-brand.test': { TXT: ['v=DMARC1; p=reject; psd=n'] },
    '_dmarc.split-brand.test': { TXT: ['v=DMARC1; p=none'] },
    's1._domainkey.split-brand.test': key,
    // A public suffix domain with a policy (psd=y): its registrants are separate organizations.
    '_dmarc.suffix-zone.test': { TXT: ['v=DMARC1; p=reject; psd=y'] },
    'brand.suffix-zone.test': { A: ['192.0.2.30'] },
    's1._domainkey.other.suffix-zone.test': key,
    // BIMI after our DMARC step.
    '_dmarc.bimi-brand.test': { TXT: ['v=DMARC1; p=reject'] },
    's1._domainkey.bimi-brand.test': key,
    'default._bimi.bimi-brand.test': { TXT: ['v=BIMI1; l=https://bimi-brand.test/logo.svg'] },
    '_dmarc.testing-brand.test': { TXT: ['v=DMARC1; p=quarantine; t=y'] },
  });
  resolver = loopbackResolver(dns);
});
afterAll(() => dns?.close());

const analyze = async (raw: Buffer | Promise<Buffer>, env: SmtpEnvelope) =>
  analyzeAuthentication(await raw, env, resolver, 'mx.inbox.localhost');

describe('strict and relaxed alignment of received messages (RFC 9989 3.2.10)', () => {
  it('3.2.10.2: adkim=s fails DMARC for a signature by a subdomain of the From domain', async () => {
    const result = await analyze(signedBy('news@strict-brand.test', 'mail.strict-brand.test'), NO_SPF);
    expect(result.dkim).toEqual([
      expect.objectContaining({ domain: 'mail.strict-brand.test', result: 'pass', aligned: false }),
    ]);
    expect(result.dmarc).toMatchObject({
      result: 'fail',
      domain: 'strict-brand.test',
      policy: 'reject',
      dkimAligned: false,
      spfAligned: false,
      adkim: 's',
    });
    expect(result.authenticationResults).toContain(
      'dmarc=fail (p=REJECT adkim=s aspf=s) header.from=strict-brand.test policy.dmarc=reject',
    );
    expect(authenticationFindings(result).map((f) => f.id)).toContain('authentication.dmarc-fail-enforced');
  });

  it('3.2.10.2: adkim=s passes for a signature by the From domain itself', async () => {
    const result = await analyze(signedBy('news@strict-brand.test', 'strict-brand.test'), NO_SPF);
    expect(result.dmarc).toMatchObject({ result: 'pass', dkimAligned: true });
  });

  it('3.2.10.1: adkim=r passes for a signature by a subdomain of the From domain', async () => {
    const result = await analyze(signedBy('news@relaxed-brand.test', 'mail.relaxed-brand.test'), NO_SPF);
    expect(result.dkim).toEqual([expect.objectContaining({ domain: 'mail.relaxed-brand.test', aligned: true })]);
    expect(result.dmarc).toMatchObject({
      result: 'pass',
      dkimAligned: true,
      adkim: 'r',
      organizationalDomain: 'relaxed-brand.test',
    });
  });

  it('3.2.10.2: aspf=s fails DMARC for a MAIL FROM under the From domain, though SPF passes', async () => {
    const result = await analyze(message('news@strict-brand.test'), envelope('bounce@bounce.strict-brand.test'));
    expect(result.spf).toMatchObject({ result: 'pass', domain: 'bounce.strict-brand.test' });
    expect(result.dmarc).toMatchObject({ result: 'fail', spfAligned: false, aspf: 's' });
  });

  it('3.2.10.1: aspf=r passes for a MAIL FROM under the From domain', async () => {
    const result = await analyze(message('news@relaxed-brand.test'), envelope('bounce@bounce.relaxed-brand.test'));
    expect(result.dmarc).toMatchObject({ result: 'pass', spfAligned: true, aspf: 'r' });
  });
});

describe('policy discovery and Organizational Domains by the DNS tree walk (RFC 9989 4.10)', () => {
  it('4.10.2 rule 1: psd=n makes a subdomain its own organization, so its parent’s signature does not align', async () => {
    const result = await analyze(signedBy('news@mail.split-brand.test', 'split-brand.test'), NO_SPF);
    expect(result.dmarc).toMatchObject({
      result: 'fail',
      domain: 'mail.split-brand.test',
      policyDomain: 'mail.split-brand.test',
      organizationalDomain: 'mail.split-brand.test',
      policy: 'reject',
    });
  });

  it('4.10.1: a From domain without its own record under a PSD gets the PSD’s policy, and another registrant’s signature does not align', async () => {
    const result = await analyze(signedBy('news@brand.suffix-zone.test', 'other.suffix-zone.test'), NO_SPF);
    expect(result.dmarc).toMatchObject({
      result: 'fail',
      domain: 'brand.suffix-zone.test',
      policyDomain: 'suffix-zone.test',
      policySource: 'public-suffix-domain',
      organizationalDomain: 'brand.suffix-zone.test',
      policy: 'reject',
      dkimAligned: false,
    });
  });

  it('4.7 t=y: the policy applied is one level below the published one', async () => {
    const result = await analyze(message('news@testing-brand.test'), NO_SPF);
    expect(result.dmarc).toMatchObject({ result: 'fail', policy: 'none', testing: true });
    expect(result.authenticationResults).toContain('policy.dmarc=none');
  });
});

describe('BIMI after our DMARC step', () => {
  it('finds the logo for a message that passes DMARC under p=reject, at the From domain and, for a subdomain, at its Organizational Domain', async () => {
    const own = await analyze(signedBy('news@bimi-brand.test', 'bimi-brand.test'), NO_SPF);
    expect(own.bimi).toEqual({ result: 'pass', logo: 'https://bimi-brand.test/logo.svg', comment: null });
    expect(own.authenticationResults).toMatch(
      /dmarc=pass [^;]*;\r\n bimi=pass header\.selector=default header\.d=bimi-brand\.test/,
    );
    const sub = await analyze(signedBy('news@mail.bimi-brand.test', 'bimi-brand.test'), NO_SPF);
    expect(sub.bimi).toMatchObject({ result: 'pass', logo: 'https://bimi-brand.test/logo.svg' });
  });

  it('skips BIMI for a message that fails DMARC', async () => {
    const result = await analyze(signedBy('news@bimi-brand.test', 'other.suffix-zone.test'), NO_SPF);
    expect(result.bimi).toMatchObject({ result: 'skipped', comment: 'message failed DMARC' });
  });
});
