import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestDnsServer } from '../../test/dns-server';
import { startLoopbackHttpsSite, type LoopbackHttpsSite } from '../../test/loopback-https-site';
import { hasOpenssl } from '../../test/self-signed-cert';
import type { DnsResolver } from '../../platform/dns/resolver';
import { createOutboundGuard, type OutboundGuard } from '../../platform/security/outbound-address';
import { checkDmarc } from './dmarc';
import { checkBimi } from './bimi';
import { parseTags } from './tag-list';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, 'fixtures', name));

/** Where the test serves logos and certificates; only the product's resolver knows the name. */
const HOST = 'logos.bimi-brand.test';
const url = (file: string) => `https://${HOST}/${file}`;
/** Within the validity of both fixture certificates (PayPal's VMC and Xometry's CMC). */
const NOW = new Date('2025-03-01T12:00:00Z');

/** A logo as the BIMI SVG profile asks: SVG 1.2 Tiny PS, a title, nothing outside the file. */
const TINY_PS = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 64 64">
  <title>Bimi Brand</title>
  <rect width="64" height="64" fill="#1a73e8"/>
  <circle cx="32" cy="32" r="20" fill="#ffffff"/>
</svg>
`;

const FILES: Record<string, { body: Buffer | string; type: string }> = {
  'logo.svg': { body: TINY_PS, type: 'image/svg+xml' },
  'logo.svgz': { body: gzipSync(TINY_PS), type: 'image/svg+xml' },
  'external.svg': {
    body: TINY_PS.replace(
      '<rect',
      '<image width="64" height="64" xlink:href="https://cdn.bimi-brand.test/logo.png"/><rect',
    ).replace(
      'xmlns="http://www.w3.org/2000/svg"',
      'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"',
    ),
    type: 'image/svg+xml',
  },
  'untitled.svg': { body: TINY_PS.replace('<title>Bimi Brand</title>', ''), type: 'image/svg+xml' },
  'tiny.svg': { body: TINY_PS.replace('baseProfile="tiny-ps"', 'baseProfile="tiny"'), type: 'image/svg+xml' },
  'positioned.svg': {
    body: TINY_PS.replace('viewBox="0 0 64 64"', 'viewBox="0 0 64 64" x="0" y="0"'),
    type: 'image/svg+xml',
  },
  'scripted.svg': { body: TINY_PS.replace('</svg>', '<script>alert(1)</script></svg>'), type: 'image/svg+xml' },
  'logo.png': { body: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), type: 'image/png' },
  'large.svg': {
    body: TINY_PS.replace('</svg>', `<desc>${'A brand. '.repeat(4000)}</desc></svg>`),
    type: 'image/svg+xml',
  },
  'paypal.svg': { body: fixture('paypal-logo.svg'), type: 'image/svg+xml' },
  'paypal.pem': { body: fixture('paypal-vmc.pem'), type: 'application/x-pem-file' },
  'xometry.svg': { body: fixture('xometry-logo.svg'), type: 'image/svg+xml' },
  'xometry.pem': { body: fixture('xometry-cmc.pem'), type: 'application/x-pem-file' },
};

/** A DMARC check's result as checkBimi reads it: the record's tags and where it was found. */
const dmarc = (record: string | null, foundAt: string | null) => ({ foundAt, tags: record ? parseTags(record) : {} });
const summary = (result: Awaited<ReturnType<typeof checkBimi>>) => ({
  status: result.status,
  findings: result.findings.map((f) => [f.severity, f.message, f.fix]),
});

const NO_CERTIFICATE_NOTE = [
  'info',
  'There is no a= mark certificate: Gmail and Apple Mail show BIMI logos only with a Verified Mark Certificate (VMC) or a Common Mark Certificate (CMC).',
  'To be shown there, get a VMC (for a registered trademark) or a CMC from a mark verifying authority such as DigiCert or Entrust, publish its PEM file over HTTPS and name it in a=.',
];

describe.skipIf(!hasOpenssl)(
  'BIMI record, logo and mark certificate (draft-brand-indicators-for-message-identification)',
  () => {
    let dns: TestDnsServer;
    let resolver: DnsResolver;
    let site: LoopbackHttpsSite;
    let ca: Buffer;
    let port = 0;
    let requests: string[] = [];
    /** The test seam: the guard lets this one loopback address through as if it were public. */
    let outbound: OutboundGuard;

    beforeAll(async () => {
      site = await startLoopbackHttpsSite(
        HOST,
        (req, res) => {
          requests.push(req.url ?? '');
          const file = FILES[(req.url ?? '').slice(1)];
          if (!file || req.headers.host !== HOST) return res.writeHead(404).end();
          res.writeHead(200, { 'content-type': file.type }).end(file.body);
        },
        { [HOST]: { A: ['127.0.0.1'] } },
      );
      ({ dns, resolver, outbound, port, ca } = site);
      FILES['self-signed.pem'] = { body: ca, type: 'application/x-pem-file' };
    });
    afterAll(() => site?.close());
    beforeEach(() => {
      requests = [];
    });

    /** The BIMI check of `domain` whose default._bimi record is `txt`, with DMARC p=reject unless said. */
    async function check(
      domain: string,
      txt: string[],
      policy = dmarc('v=DMARC1; p=reject', `_dmarc.${domain}`),
      options = {},
    ) {
      dns.zone[`default._bimi.${domain}`] = { TXT: txt };
      return checkBimi(resolver, domain, policy, { outbound, port, ca, now: NOW, ...options });
    }

    describe('the assertion record', () => {
      it("draft 7.2 step 6: a subdomain without a record of its own uses its Organizational Domain's, and its own record wins", async () => {
        dns.zone['_dmarc.bimi-org.test'] = { TXT: ['v=DMARC1; p=reject'] };
        dns.zone['default._bimi.bimi-org.test'] = { TXT: ['v=BIMI1; l=; a=;'] };
        // The Organizational Domain is the one the DMARC check found by RFC 9989's tree walk.
        const policy = await checkDmarc(resolver, 'news.bimi-org.test');
        expect(policy.discovery?.organizationalDomain).toBe('bimi-org.test');
        const inherited = await checkBimi(resolver, 'news.bimi-org.test', policy, { outbound, port, ca, now: NOW });
        expect(summary(inherited)).toEqual({
          status: 'valid',
          findings: [
            [
              'info',
              'news.bimi-org.test has no BIMI record of its own, so mailbox providers use the one of its Organizational Domain at default._bimi.bimi-org.test (BIMI draft section 7.2).',
              'To show another logo for news.bimi-org.test, or none, publish a record at default._bimi.news.bimi-org.test ("v=BIMI1; l=; a=" declines).',
            ],
            [
              'info',
              'This domain declines to show a BIMI logo (an empty l= and a=): mailbox providers show none for it.',
              null,
            ],
          ],
        });
        expect(inherited.record).toBe('v=BIMI1; l=; a=;');

        dns.zone['default._bimi.news.bimi-org.test'] = { TXT: ['v=BIMI1; l=https://example.com/logo.txt'] };
        const own = await checkBimi(resolver, 'news.bimi-org.test', policy, { outbound, port, ca, now: NOW });
        expect(own.record).toBe('v=BIMI1; l=https://example.com/logo.txt');
      });

      it.each([
        {
          name: 'draft 4.3.1: an empty l= and a= is a declination to publish, not an error',
          txt: ['v=BIMI1; l=; a=;'],
        },
        {
          name: 'draft 4.3.1: an empty l= with no a= (assumed empty, 4.3) is a declination to publish',
          txt: ['v=BIMI1; l='],
        },
      ])('$name', async ({ txt }) => {
        // A declination needs no DMARC enforcement and fetches nothing.
        const result = await check('bimi-declines.test', txt, dmarc('v=DMARC1; p=none', '_dmarc.bimi-declines.test'));
        expect(summary(result)).toEqual({
          status: 'valid',
          findings: [
            [
              'info',
              'This domain declines to show a BIMI logo (an empty l= and a=): mailbox providers show none for it.',
              null,
            ],
          ],
        });
        expect(requests).toEqual([]);
      });

      it.each([
        {
          name: 'draft 4.3 and 7.3: l= must be an https: URI',
          txt: [`v=BIMI1; l=http://${HOST}/logo.svg`],
          finding: [
            'error',
            `l= "http://${HOST}/logo.svg" is not an https: URL: mailbox providers fetch BIMI logos only over HTTPS, so they show none.`,
            `Serve the logo over HTTPS and write l=https://${HOST}/logo.svg.`,
          ],
        },
        {
          name: 'draft 4.3: l= holds a single URI',
          txt: [`v=BIMI1; l=${url('logo.svg')},${url('tiny.svg')}`],
          finding: [
            'error',
            `l= "${url('logo.svg')},${url('tiny.svg')}" is not a single https: URL: mailbox providers fetch BIMI logos only over HTTPS, so they show none.`,
            'Name one logo in l=, e.g. l=https://…/logo.svg.',
          ],
        },
        {
          name: 'draft 4.3: l= is required',
          txt: ['v=BIMI1; a='],
          finding: [
            'error',
            'The BIMI record has no l= tag, so mailbox providers show no logo.',
            'Add l=https://…/logo.svg naming your SVG Tiny PS logo, or publish "v=BIMI1; l=; a=;" to decline BIMI.',
          ],
        },
        {
          name: 'draft 7.3: an empty l= with an a= certificate has no logo to show',
          txt: [`v=BIMI1; l=; a=${url('paypal.pem')}`],
          finding: [
            'error',
            'l= is empty while a= names a mark certificate, so mailbox providers have no logo to show.',
            'Add l=https://…/logo.svg naming the SVG logo your certificate was issued for.',
          ],
        },
        {
          name: 'draft 4.3: a= must be an https: URI',
          txt: [`v=BIMI1; l=${url('logo.svg')}; a=http://${HOST}/paypal.pem`],
          finding: [
            'error',
            `a= "http://${HOST}/paypal.pem" is not an https: URL, so mailbox providers cannot check your mark certificate.`,
            `Serve the certificate's PEM file over HTTPS and write a=https://${HOST}/paypal.pem.`,
          ],
        },
        {
          name: 'draft 4.3: v= must match "BIMI1" precisely',
          txt: [`v=bimi1; l=${url('logo.svg')}`],
          finding: [
            'error',
            'The record begins with "v=bimi1"; it must be exactly "v=BIMI1", or mailbox providers ignore it.',
            'Write "v=BIMI1".',
          ],
        },
        {
          name: 'draft 4.3: v= is the first tag; other records are discarded (7.2 step 4)',
          txt: [`l=${url('logo.svg')}; v=BIMI1`],
          finding: [
            'error',
            'The TXT record at default._bimi.bimi-record.test names v=BIMI1 but does not begin with it, so mailbox providers discard it.',
            `Make v=BIMI1 the first field: "v=BIMI1; l=${url('logo.svg')}".`,
          ],
        },
        {
          name: 'draft 4.3: the record is a DKIM tag list (RFC 6376 3.2), taken precisely: a tag named twice makes it invalid',
          txt: [`v=BIMI1; l=${url('logo.svg')}; l=${url('tiny.svg')}`],
          finding: [
            'error',
            'The BIMI record is not a valid tag list (the tag l= appears twice), and mailbox providers do not correct it: they ignore it.',
            'Write it as tag=value pairs separated by ";", each tag once, e.g. "v=BIMI1; l=https://…/logo.svg".',
          ],
        },
        {
          name: 'draft 7.2 step 9: more than one BIMI record means none is used',
          txt: [`v=BIMI1; l=${url('logo.svg')}`, `v=BIMI1; l=${url('tiny.svg')}`],
          finding: [
            'error',
            '2 BIMI records at default._bimi.bimi-record.test: mailbox providers use none of them, so no BIMI logo is shown.',
            'Keep exactly one v=BIMI1 record at default._bimi.bimi-record.test and delete the others.',
          ],
        },
      ])('$name', async ({ txt, finding }) => {
        const result = await check('bimi-record.test', txt);
        expect(result.status).toBe('invalid');
        expect(summary(result).findings).toContainEqual(finding);
      });

      it('says when there is no record', async () => {
        expect(summary(await check('bimi-none.test', []))).toEqual({
          status: 'missing',
          findings: [
            [
              'info',
              'No BIMI record: mailbox providers show no brand logo.',
              'Publish "v=BIMI1; l=https://.../logo.svg" at default._bimi.bimi-none.test.',
            ],
          ],
        });
      });

      it('reports a failed lookup of default._bimi as a finding, and the check completes', async () => {
        dns.servfail.add('default._bimi.bimi-servfail.test');
        expect(
          summary(
            await checkBimi(resolver, 'bimi-servfail.test', dmarc('v=DMARC1; p=reject', '_dmarc.bimi-servfail.test'), {
              outbound,
              port,
              ca,
            }),
          ),
        ).toEqual({
          status: 'invalid',
          findings: [
            [
              'error',
              'The DNS lookup of default._bimi.bimi-servfail.test failed (ESERVFAIL), so mailbox providers cannot find your BIMI record now.',
              'Check that the name servers of bimi-servfail.test answer for default._bimi.bimi-servfail.test, then check again.',
            ],
          ],
        });
      });
    });

    describe('DMARC enforcement (draft 7.1 steps 7 to 9)', () => {
      const DOMAIN = 'bimi-dmarc.test';
      const OWN = `_dmarc.${DOMAIN}`;
      const PARENT = '_dmarc.dmarc.test';
      const record = [`v=BIMI1; l=${url('logo.svg')}`];

      it.each([
        { name: 'p=reject qualifies', policy: dmarc('v=DMARC1; p=reject', OWN) },
        { name: 'p=quarantine at pct=100 qualifies', policy: dmarc('v=DMARC1; p=quarantine; pct=100', OWN) },
        {
          name: 'p=reject with pct below 100 qualifies: the rest is quarantined (RFC 7489 6.6.4)',
          policy: dmarc('v=DMARC1; p=reject; pct=50', OWN),
        },
        {
          name: 'RFC 9989 t=y with p=reject is applied as quarantine, still enforcement',
          policy: dmarc('v=DMARC1; p=reject; t=y', OWN),
        },
        {
          name: 'a record found at a parent domain applies its sp=quarantine',
          policy: dmarc('v=DMARC1; p=reject; sp=quarantine', PARENT),
        },
        {
          name: 'a record found at a parent domain without sp= applies its p=reject',
          policy: dmarc('v=DMARC1; p=reject', PARENT),
        },
      ])('$name', async ({ policy }) => {
        expect(summary(await check(DOMAIN, record, policy))).toEqual({
          status: 'valid',
          findings: [NO_CERTIFICATE_NOTE],
        });
      });

      it.each([
        {
          name: 'step 7: p=none does not qualify',
          policy: dmarc('v=DMARC1; p=none', OWN),
          finding: [
            'Mailbox providers show no BIMI logo for bimi-dmarc.test: the DMARC record at _dmarc.bimi-dmarc.test has p=none, and BIMI requires p=quarantine or p=reject.',
            'Once your DMARC reports show your senders pass, set p=quarantine, then p=reject, at _dmarc.bimi-dmarc.test.',
          ],
        },
        {
          name: 'step 7: the organizational domain’s p=none does not qualify, whatever its sp=',
          policy: dmarc('v=DMARC1; p=none; sp=reject', PARENT),
          finding: [
            'Mailbox providers show no BIMI logo for bimi-dmarc.test: the DMARC record at _dmarc.dmarc.test has p=none, and BIMI requires p=quarantine or p=reject.',
            'Once your DMARC reports show your senders pass, set p=quarantine, then p=reject, at _dmarc.dmarc.test.',
          ],
        },
        {
          name: 'step 8: sp=none does not qualify, even with p=reject',
          policy: dmarc('v=DMARC1; p=reject; sp=none', OWN),
          finding: [
            'Mailbox providers show no BIMI logo for bimi-dmarc.test: the DMARC record at _dmarc.bimi-dmarc.test has sp=none, and BIMI requires subdomain policies to be enforced too.',
            'Set sp=quarantine or sp=reject at _dmarc.bimi-dmarc.test, or remove sp= so that p= covers subdomains.',
          ],
        },
        {
          name: 'step 9: p=quarantine with pct below 100 does not qualify',
          policy: dmarc('v=DMARC1; p=quarantine; pct=50', OWN),
          finding: [
            'Mailbox providers show no BIMI logo for bimi-dmarc.test: the DMARC policy quarantine applies to only 50% of failing mail (pct=50), and BIMI requires pct=100.',
            'Set pct=100 at _dmarc.bimi-dmarc.test, or remove pct= (100 is the default).',
          ],
        },
        {
          name: 'step 9: a parent’s sp=quarantine with pct below 100 does not qualify',
          policy: dmarc('v=DMARC1; p=reject; sp=quarantine; pct=10', PARENT),
          finding: [
            'Mailbox providers show no BIMI logo for bimi-dmarc.test: the DMARC policy quarantine applies to only 10% of failing mail (pct=10), and BIMI requires pct=100.',
            'Set pct=100 at _dmarc.dmarc.test, or remove pct= (100 is the default).',
          ],
        },
        {
          name: 'RFC 9989 t=y: p=quarantine in testing is applied as none',
          policy: dmarc('v=DMARC1; p=quarantine; t=y', OWN),
          finding: [
            'Mailbox providers show no BIMI logo for bimi-dmarc.test: the DMARC record at _dmarc.bimi-dmarc.test has t=y (testing), so its quarantine policy is applied as none, and BIMI requires enforcement.',
            'Remove t=y at _dmarc.bimi-dmarc.test once your DMARC reports show your senders pass.',
          ],
        },
        {
          name: 'no DMARC record does not qualify',
          policy: dmarc(null, null),
          finding: [
            'Mailbox providers show no BIMI logo for bimi-dmarc.test: it has no DMARC record, and BIMI requires a DMARC policy of quarantine or reject.',
            'Publish a DMARC record with p=quarantine or p=reject (see the DMARC check).',
          ],
        },
      ])('$name', async ({ policy, finding }) => {
        expect(summary(await check(DOMAIN, record, policy))).toEqual({
          status: 'invalid',
          findings: [['error', ...finding], NO_CERTIFICATE_NOTE],
        });
      });
    });

    describe('the logo at l=, fetched through the outbound guard (draft 7.5, 7.6; SVG Tiny PS)', () => {
      const DOMAIN = 'bimi-logo.test';

      it('accepts an SVG Tiny PS logo, and says Gmail and Apple Mail also want a mark certificate', async () => {
        const result = await check(DOMAIN, [`v=BIMI1; l=${url('logo.svg')}`]);
        expect(summary(result)).toEqual({ status: 'valid', findings: [NO_CERTIFICATE_NOTE] });
        expect(result.logo).toEqual({ url: url('logo.svg'), bytes: Buffer.byteLength(TINY_PS), valid: true });
        expect(requests).toEqual(['/logo.svg']);
      });

      it('draft 4.3.2: accepts a gzip-compressed SVGZ logo', async () => {
        expect(summary(await check(DOMAIN, [`v=BIMI1; l=${url('logo.svgz')}`]))).toEqual({
          status: 'valid',
          findings: [NO_CERTIFICATE_NOTE],
        });
      });

      it.each([
        {
          file: 'external.svg',
          message: 'refers to an external resource (https://cdn.bimi-brand.test/logo.png), which SVG Tiny PS forbids',
          fix: 'Embed everything in the SVG file itself and remove the link.',
        },
        {
          file: 'untitled.svg',
          message: 'has no <title>, which SVG Tiny PS requires',
          fix: 'Add <title>Your brand name</title> right after the <svg> tag.',
        },
        {
          file: 'tiny.svg',
          message: 'is not SVG Tiny PS: its <svg> element has no baseProfile="tiny-ps"',
          fix: 'Export the logo as SVG Tiny PS: version="1.2" and baseProfile="tiny-ps" on the <svg> element, and nothing the profile forbids.',
        },
        {
          file: 'positioned.svg',
          message: 'has x= or y= on its <svg> element, which SVG Tiny PS forbids',
          fix: 'Remove x= and y= from the <svg> element.',
        },
        {
          file: 'scripted.svg',
          message: 'contains a <script> element, which SVG Tiny PS forbids',
          fix: 'Remove scripts and animations from the logo.',
        },
        {
          file: 'logo.png',
          message: 'is not an SVG image, the only format BIMI allows',
          fix: 'Publish the logo as an SVG Tiny PS file.',
        },
      ])('SVG Tiny PS: $file', async ({ file, message, fix }) => {
        const result = await check(DOMAIN, [`v=BIMI1; l=${url(file)}`]);
        expect(summary(result)).toEqual({
          status: 'invalid',
          findings: [
            ['error', `The logo at ${url(file)} ${message}, so mailbox providers do not show it.`, fix],
            NO_CERTIFICATE_NOTE,
          ],
        });
        expect(result.logo).toMatchObject({ url: url(file), valid: false });
      });

      it('draft 7.6 step 1: a logo larger than 32 KB is not read past the limit', async () => {
        const result = await check(DOMAIN, [`v=BIMI1; l=${url('large.svg')}`]);
        expect(summary(result)).toEqual({
          status: 'invalid',
          findings: [
            [
              'error',
              `The logo at ${url('large.svg')} could not be fetched: it is larger than 32 KB.`,
              'Keep the SVG under 32 KB, the size the BIMI SVG profile sets and mailbox providers accept: simplify paths, remove metadata and embedded fonts.',
            ],
            NO_CERTIFICATE_NOTE,
          ],
        });
        expect(result.logo).toBeUndefined();
      });

      it('says what the host answered, and refuses a host that is not public without connecting', async () => {
        expect(summary(await check(DOMAIN, [`v=BIMI1; l=${url('missing.svg')}`])).findings[0]).toEqual([
          'error',
          `The logo at ${url('missing.svg')} could not be fetched: HTTP 404.`,
          `Serve the SVG logo at ${url('missing.svg')} itself, with HTTP 200.`,
        ]);
        requests = [];
        const production = createOutboundGuard(resolver);
        expect(
          summary(await check(DOMAIN, [`v=BIMI1; l=${url('logo.svg')}`], undefined, { outbound: production }))
            .findings[0],
        ).toEqual([
          'error',
          `The logo at ${url('logo.svg')} could not be fetched from ${HOST}.`,
          `Serve the SVG logo at ${url('logo.svg')} itself, with HTTP 200.`,
        ]);
        expect(requests).toEqual([]);
      });
    });

    describe('the mark certificate at a= (VMC or CMC, validated with @postalsys/vmc)', () => {
      const record = (logo: string, pem: string) => [`v=BIMI1; l=${url(logo)}; a=${url(pem)}`];

      it('validates a VMC: chain to a BIMI root, validity, the domain it covers, and the logo at l= being its logo', async () => {
        const result = await check('paypal.com', record('paypal.svg', 'paypal.pem'));
        expect(summary(result)).toEqual({ status: 'valid', findings: [] });
        expect(result.certificate).toEqual({
          type: 'VMC',
          subject: 'PayPal, Inc.',
          issuer: 'DigiCert, Inc.',
          validFrom: '2024-09-09T00:00:00.000Z',
          validTo: '2025-09-08T23:59:59.000Z',
          domains: ['paypal.com'],
          logoMatches: true,
        });
        expect(requests.sort()).toEqual(['/paypal.pem', '/paypal.svg']);
      });

      it('tells a CMC (a prior-use mark) from a VMC', async () => {
        const result = await check('xometry.com', record('xometry.svg', 'xometry.pem'));
        expect(summary(result)).toEqual({ status: 'valid', findings: [] });
        expect(result.certificate).toMatchObject({
          type: 'CMC',
          subject: 'XOMETRY, INC.',
          domains: ['xometry.com'],
          logoMatches: true,
        });
      });

      it('covers a subdomain of the organizational domain it names', async () => {
        expect(summary(await check('news.paypal.com', record('paypal.svg', 'paypal.pem')))).toEqual({
          status: 'valid',
          findings: [],
        });
      });

      it.each([
        {
          name: 'a certificate for another domain',
          domain: 'bimi-vmc.test',
          txt: record('paypal.svg', 'paypal.pem'),
          finding: [
            'error',
            `The mark certificate at ${url('paypal.pem')} is for paypal.com, not bimi-vmc.test, so mailbox providers do not show the logo.`,
            'Publish the certificate issued for bimi-vmc.test, or have bimi-vmc.test added to yours.',
          ],
        },
        {
          name: 'a file with no certificate',
          domain: 'bimi-vmc.test',
          txt: record('logo.svg', 'logo.svg'),
          finding: [
            'error',
            `The mark certificate at ${url('logo.svg')} holds no PEM certificate, so mailbox providers cannot check it.`,
            'Publish the PEM file (-----BEGIN CERTIFICATE-----) your mark verifying authority issued.',
          ],
        },
        {
          name: 'a certificate that cannot be fetched',
          domain: 'bimi-vmc.test',
          txt: record('logo.svg', 'missing.pem'),
          finding: [
            'error',
            `The mark certificate at ${url('missing.pem')} could not be fetched: HTTP 404.`,
            `Serve the certificate's PEM file at ${url('missing.pem')} itself, with HTTP 200.`,
          ],
        },
      ])('$name', async ({ domain, txt, finding }) => {
        const result = await check(domain, txt);
        expect(summary(result)).toEqual({ status: 'invalid', findings: [finding] });
        expect(result.certificate).toBeUndefined();
      });

      it('a logo at l= other than the one the certificate carries', async () => {
        const result = await check('paypal.com', record('logo.svg', 'paypal.pem'));
        expect(summary(result)).toEqual({
          status: 'invalid',
          findings: [
            [
              'error',
              `The logo at ${url('logo.svg')} is not the logo in the mark certificate at ${url('paypal.pem')}, so mailbox providers do not show it.`,
              'Publish at l= the exact SVG file the certificate was issued for.',
            ],
          ],
        });
        expect(result.certificate).toMatchObject({ type: 'VMC', logoMatches: false });
      });

      it('a certificate that does not chain to a mark verifying authority (the test server’s own, checked now, within its validity)', async () => {
        const result = await check('bimi-vmc.test', record('logo.svg', 'self-signed.pem'), undefined, {
          now: new Date(),
        });
        expect(summary(result)).toEqual({
          status: 'invalid',
          findings: [
            [
              'error',
              `The mark certificate at ${url('self-signed.pem')} does not chain to the root of a mark verifying authority, so mailbox providers do not trust it.`,
              'Publish the PEM file your mark verifying authority issued: your certificate first, then its intermediate certificates.',
            ],
          ],
        });
      });

      it('an expired certificate, checked at a time past its validity', async () => {
        const result = await check('paypal.com', record('paypal.svg', 'paypal.pem'), undefined, {
          now: new Date('2026-01-01T00:00:00Z'),
        });
        expect(summary(result)).toEqual({
          status: 'invalid',
          findings: [
            [
              'error',
              `The mark certificate at ${url('paypal.pem')} expired on 2025-09-08, so mailbox providers do not show the logo.`,
              'Renew the certificate with your mark verifying authority and publish the new PEM file.',
            ],
          ],
        });
      });
    });
  },
);
