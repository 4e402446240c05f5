import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer, loopbackResolver } from '../../test/dns-server';
import { evaluateDmarc } from './dmarc-evaluation';
import type { DnsResolver } from '../../platform/dns/resolver';

let dns: TestDnsServer;
let resolver: DnsResolver;

beforeAll(async () => {
  dns = await startDnsServer({
    '_dmarc.strict-dkim.test': { TXT: ['v=DMARC1; p=reject; adkim=s'] },
    '_dmarc.relaxed-dkim.test': { TXT: ['v=DMARC1; p=reject; adkim=r'] },
    '_dmarc.strict-spf.test': { TXT: ['v=DMARC1; p=quarantine; aspf=s'] },
    '_dmarc.relaxed-spf.test': { TXT: ['v=DMARC1; p=quarantine'] },
    // B.4.3 with our names.
    '_dmarc.banksuffix.test': { TXT: ['v=DMARC1; p=reject; psd=y'] },
    '_dmarc.giant.banksuffix.test': { TXT: ['v=DMARC1; p=reject'] },
    // psd=n: mail.psdn.test is its own Organizational Domain, apart from psdn.test.
    '_dmarc.mail.psdn.test': { TXT: ['v=DMARC1; p=reject; psd=n'] },
    '_dmarc.psdn.test': { TXT: ['v=DMARC1; p=reject'] },
    '_dmarc.broken.test': { TXT: ['v=DMARC1; p=always'] },
    '_dmarc.flaky-signer.test': { TXT: ['v=DMARC1; p=reject'] },
  });
  dns.servfail.add('_dmarc.esp.flaky-signer.test');
  resolver = loopbackResolver(dns);
});
afterAll(() => dns?.close());

describe('Identifier Alignment (RFC 9989 3.2.10, 4.4, 4.10.2)', () => {
  it.each([
    [
      '3.2.10.2 strict (adkim=s): a DKIM d= under the Author Domain does not align',
      'strict-dkim.test',
      null,
      ['mail.strict-dkim.test'],
      'fail',
      [false],
    ],
    ['3.2.10.2 strict (adkim=s): the same name aligns', 'strict-dkim.test', null, ['strict-dkim.test'], 'pass', [true]],
    [
      '3.2.10.2 strict: names compare without regard to case or a trailing dot',
      'strict-dkim.test',
      null,
      ['Strict-DKIM.test.'],
      'pass',
      [true],
    ],
    [
      '3.2.10.1 relaxed (adkim=r): a DKIM d= with the same Organizational Domain aligns',
      'relaxed-dkim.test',
      null,
      ['mail.relaxed-dkim.test'],
      'pass',
      [true],
    ],
    [
      '3.2.10.1 relaxed: the Author Domain under the DKIM d= aligns too',
      'news.relaxed-dkim.test',
      null,
      ['relaxed-dkim.test'],
      'pass',
      [true],
    ],
    [
      '3.2.10.1 relaxed: another organization does not align',
      'relaxed-dkim.test',
      null,
      ['esp-relay.test'],
      'fail',
      [false],
    ],
    [
      'B.4.3: a DKIM d= under another registrant of a PSD does not align',
      'giant.banksuffix.test',
      null,
      ['mail.mega.banksuffix.test'],
      'fail',
      [false],
    ],
    [
      '4.10.2 rule 1: psd=n makes mail.psdn.test its own Organizational Domain',
      'mail.psdn.test',
      null,
      ['psdn.test'],
      'fail',
      [false],
    ],
  ])('%s', async (_clause, authorDomain, spfDomain, dkimDomains, result, aligned) => {
    const evaluation = await evaluateDmarc(resolver, { authorDomain, spfDomain, dkimDomains });
    expect(evaluation.result).toBe(result);
    expect(evaluation.dkim.map((d) => d.aligned)).toEqual(aligned);
  });

  it.each([
    [
      '3.2.10.2 strict (aspf=s): a MAIL FROM under the Author Domain does not align',
      'strict-spf.test',
      'bounce.strict-spf.test',
      'fail',
      false,
    ],
    [
      '3.2.10.1 relaxed (aspf=r by default): a MAIL FROM under the Author Domain aligns',
      'relaxed-spf.test',
      'bounce.relaxed-spf.test',
      'pass',
      true,
    ],
    [
      'B.4.3: the MAIL FROM under the registrant aligns through the PSD’s psd=y',
      'giant.banksuffix.test',
      'mail.giant.banksuffix.test',
      'pass',
      true,
    ],
  ])('%s', async (_clause, authorDomain, spfDomain, result, aligned) => {
    const evaluation = await evaluateDmarc(resolver, { authorDomain, spfDomain, dkimDomains: [] });
    expect(evaluation).toMatchObject({ result, spf: { domain: spfDomain, aligned } });
  });
});

describe('DMARC results (RFC 9989 9.2, 5.3.5, 5.3.6)', () => {
  it('none: no DMARC Policy Record applies', async () => {
    expect(
      await evaluateDmarc(resolver, { authorDomain: 'no-record.test', spfDomain: 'no-record.test', dkimDomains: [] }),
    ).toMatchObject({ result: 'none' });
  });

  it('permerror: a record whose p= is broken and that has no rua= (4.10.1: no DMARC processing)', async () => {
    expect(
      await evaluateDmarc(resolver, { authorDomain: 'broken.test', spfDomain: 'broken.test', dkimDomains: [] }),
    ).toMatchObject({ result: 'permerror' });
  });

  it('temperror: the only identifier’s Organizational Domain could not be found (a lookup failed)', async () => {
    const evaluation = await evaluateDmarc(resolver, {
      authorDomain: 'flaky-signer.test',
      spfDomain: null,
      dkimDomains: ['esp.flaky-signer.test'],
    });
    expect(evaluation).toMatchObject({
      result: 'temperror',
      dkim: [{ aligned: null }],
      failed: { name: '_dmarc.esp.flaky-signer.test', code: 'ESERVFAIL' },
    });
  });

  it('pass: one aligned identifier is enough, whatever a failed lookup left open (5.3.5)', async () => {
    const evaluation = await evaluateDmarc(resolver, {
      authorDomain: 'flaky-signer.test',
      spfDomain: 'flaky-signer.test',
      dkimDomains: ['esp.flaky-signer.test'],
    });
    expect(evaluation).toMatchObject({ result: 'pass', failed: null });
  });

  it('5.3.1: an internationalized Author Domain is evaluated as its A-label', async () => {
    dns.zone['_dmarc.xn--bcher-kva.test'] = { TXT: ['v=DMARC1; p=reject; adkim=s'] };
    const evaluation = await evaluateDmarc(resolver, {
      authorDomain: 'bücher.test',
      spfDomain: null,
      dkimDomains: ['xn--bcher-kva.test'],
    });
    expect(evaluation).toMatchObject({ result: 'pass', authorDomain: 'xn--bcher-kva.test' });
  });
});
