import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestDnsServer } from '../../test/dns-server';
import { startLoopbackHttpsSite, type LoopbackHttpsSite } from '../../test/loopback-https-site';
import { hasOpenssl } from '../../test/self-signed-cert';
import type { DnsResolver } from '../../platform/dns/resolver';
import { createOutboundGuard, type OutboundGuard } from '../../platform/security/outbound-address';
import { checkMtaSts, mxMatches, parseMtaStsPolicy } from './mta-sts';
import type { FetchOptions } from './fetch-url';

const DOMAIN = 'sts-brand.test';

describe('MTA-STS policy parsing (RFC 8461 3.2)', () => {
  const base = {
    version: 'STSv1',
    mode: 'enforce',
    mx: ['mx1.brand.test'],
    maxAge: '604800',
    repeated: [],
    malformed: [],
  };
  it.each([
    {
      name: 'RFC 8461 3.2: key: value lines, CRLF or LF, mx repeated, names lower-cased for matching',
      text: 'version: STSv1\r\nmode: enforce\r\nmx: mx1.Brand.test\r\nmx: *.mail.brand.test\nmax_age: 604800\r\n',
      expected: { ...base, mx: ['mx1.brand.test', '*.mail.brand.test'] },
    },
    {
      name: 'RFC 8461 3.2: a repeated field other than mx counts once, the first',
      text: 'version: STSv1\nmode: enforce\nmode: none\nmx: mx1.brand.test\nmax_age: 604800\nmax_age: 60\n',
      expected: { ...base, repeated: ['mode', 'max_age'] },
    },
    {
      name: 'RFC 8461 3.2: max_age is kept as written, for the check to judge (1*10DIGIT, at most 31557600)',
      text: 'version: STSv1\nmode: enforce\nmx: mx1.brand.test\nmax_age: 1w\n',
      expected: { ...base, maxAge: '1w' },
    },
    {
      name: 'RFC 8461 3.2: field names are case-sensitive (%s): "Mode" is an unknown field, ignored',
      text: 'version: STSv1\nMode: enforce\nmx: mx1.brand.test\nmax_age: 604800\n',
      expected: { ...base, mode: null },
    },
    {
      name: 'RFC 8461 3.2: a line that is not "name: value" is malformed',
      text: 'version: STSv1\nmode = enforce\nmx: mx1.brand.test\nmax_age: 604800\n',
      expected: { ...base, mode: null, malformed: ['mode = enforce'] },
    },
  ])('$name', ({ text, expected }) => {
    expect(parseMtaStsPolicy(text)).toEqual(expected);
  });

  it('RFC 8461 4.1: a "*." pattern matches exactly one more label on the left', () => {
    expect(mxMatches('*.mail.brand.test', 'a.mail.brand.test.')).toBe(true);
    expect(mxMatches('*.mail.brand.test', 'a.b.mail.brand.test')).toBe(false);
    expect(mxMatches('*.mail.brand.test', 'mail.brand.test')).toBe(false);
    expect(mxMatches('mx1.brand.test', 'MX1.brand.test')).toBe(true);
  });
});

describe.skipIf(!hasOpenssl)('MTA-STS policy fetched over HTTPS (needs openssl to make a test certificate)', () => {
  let dns: TestDnsServer;
  let resolver: DnsResolver;
  let site: LoopbackHttpsSite;
  let ca: Buffer;
  let policy = '';
  let status = 200;
  let contentType: string | undefined = 'text/plain';
  let location: string | undefined;
  let port = 0;
  let connections = 0;
  /** The test seam: the guard lets this one loopback address through as if it were public. */
  let outbound: OutboundGuard;

  beforeAll(async () => {
    site = await startLoopbackHttpsSite(
      `mta-sts.${DOMAIN}`,
      (req, res) => {
        if (req.url !== '/.well-known/mta-sts.txt' || req.headers.host !== `mta-sts.${DOMAIN}`)
          return res.writeHead(404).end();
        res
          .writeHead(status, { ...(contentType && { 'content-type': contentType }), ...(location && { location }) })
          .end(policy);
      },
      {
        [`_mta-sts.${DOMAIN}`]: { TXT: ['v=STSv1; id=20261122'] },
        // Only the product's resolver knows this name: the fetch must go through it.
        [`mta-sts.${DOMAIN}`]: { A: ['127.0.0.1'] },
      },
      // Every loopback address (127.0.0.1, ::1, ::ffff:127.0.0.1) reaches this one server.
      '::',
    );
    site.server.on('connection', () => connections++);
    ({ dns, resolver, outbound, port, ca } = site);
  });
  afterAll(() => site?.close());
  beforeEach(() => {
    dns.zone[`mta-sts.${DOMAIN}`] = { A: ['127.0.0.1'] };
    dns.zone[`_mta-sts.${DOMAIN}`] = { TXT: ['v=STSv1; id=20261122'] };
    dns.servfail.clear();
    status = 200;
    contentType = 'text/plain';
    location = undefined;
    policy = 'version: STSv1\nmode: enforce\nmx: *.sts-brand.test\nmax_age: 604800\n';
    connections = 0;
  });

  const check = (mx: string[], options: FetchOptions = {}) =>
    checkMtaSts(resolver, DOMAIN, mx, { port, ca, outbound, ...options });
  const NEUTRAL = `The MTA-STS policy could not be fetched from mta-sts.${DOMAIN}.`;

  it('accepts an enforced policy that covers every MX host', async () => {
    policy = 'version: STSv1\nmode: enforce\nmx: mx1.sts-brand.test\nmx: *.backup.sts-brand.test\nmax_age: 604800\n';
    const result = await check(['mx1.sts-brand.test', 'b2.backup.sts-brand.test']);
    expect(result).toMatchObject({ status: 'valid', record: 'v=STSv1; id=20261122', policy, findings: [] });
    expect(connections).toBe(1);
  });

  it('flags an MX host the enforced policy leaves out, and a short max_age', async () => {
    policy = 'version: STSv1\nmode: enforce\nmx: mx1.sts-brand.test\nmax_age: 3600\n';
    const result = await check(['mx1.sts-brand.test', 'mx2.sts-brand.test']);
    expect(result.status).toBe('invalid');
    expect(result.findings.map((f) => [f.severity, f.message])).toEqual([
      ['warning', 'max_age is 3600 seconds: senders forget the policy within a day.'],
      ['error', 'The MTA-STS policy does not list mx2.sts-brand.test: senders that enforce it will not deliver there.'],
    ]);
  });

  const GOOD_POLICY = 'version: STSv1\nmode: enforce\nmx: mx1.sts-brand.test\nmax_age: 604800\n';
  const summary = (result: Awaited<ReturnType<typeof checkMtaSts>>) => ({
    status: result.status,
    findings: result.findings.map((f) => [f.severity, f.message, f.fix]),
  });

  it.each([
    {
      name: 'RFC 8461 3.1: more than one v=STSv1 record means no policy',
      txt: ['v=STSv1; id=20261122', 'v=STSv1; id=20261123'],
      findings: [
        [
          'error',
          '2 MTA-STS records at _mta-sts.sts-brand.test: senders use none of them, so your MTA-STS policy is not applied.',
          'Keep exactly one v=STSv1 record at _mta-sts.sts-brand.test and delete the others.',
        ],
      ],
    },
    {
      name: 'RFC 8461 3.1: a record that does not begin with v=STSv1 is discarded',
      txt: ['id=20261122; v=STSv1'],
      findings: [
        [
          'error',
          'The TXT record at _mta-sts.sts-brand.test names v=STSv1 but does not begin with it, so senders discard it.',
          'Make v=STSv1 the first field: "v=STSv1; id=20261122".',
        ],
      ],
    },
    {
      name: 'RFC 8461 3.1: sts-id is 1*32(ALPHA / DIGIT): a dash is not allowed',
      txt: ['v=STSv1; id=2026-11-22'],
      findings: [
        [
          'error',
          'id=2026-11-22 is not 1 to 32 letters and digits, so senders ignore the record.',
          'Use letters and digits only, e.g. id=20261122, and change it with every policy change.',
        ],
      ],
    },
    {
      name: 'RFC 8461 3.1: sts-id is at most 32 characters',
      txt: [`v=STSv1; id=${'a1'.repeat(17)}`],
      findings: [
        [
          'error',
          `id=${'a1'.repeat(17)} is not 1 to 32 letters and digits, so senders ignore the record.`,
          `Use letters and digits only, e.g. id=${'a1'.repeat(16)}, and change it with every policy change.`,
        ],
      ],
    },
    {
      name: 'RFC 8461 3.1: id is required',
      txt: ['v=STSv1;'],
      findings: [
        [
          'error',
          'The MTA-STS record has no id=, so senders ignore it.',
          'Add id= with letters and digits you change at every policy change, such as the date of the change: id=20240131.',
        ],
      ],
    },
    {
      name: 'RFC 8461 3.1: sts-version is %s"v=STSv1", case-sensitive',
      txt: ['v=stsv1; id=20261122'],
      findings: [
        [
          'error',
          'The record begins with "v=stsv1"; it must be exactly "v=STSv1" (upper and lower case as written).',
          'Write "v=STSv1".',
        ],
      ],
    },
    {
      name: 'RFC 8461 3.1: sts-ext-value is one or more visible characters other than "=" and ";"',
      txt: ['v=STSv1; id=20261122; ext='],
      findings: [
        [
          'error',
          'The field "ext=" has no value, so the record is not valid MTA-STS syntax.',
          'Give it a value or remove it.',
        ],
      ],
    },
  ])('$name', async ({ txt, findings }) => {
    dns.zone[`_mta-sts.${DOMAIN}`] = { TXT: txt };
    policy = GOOD_POLICY;
    // The policy is still fetched and checked: the owner sees every problem at once.
    expect(summary(await check(['mx1.sts-brand.test']))).toEqual({ status: 'invalid', findings });
  });

  it('RFC 8461 3.1: a failed lookup of _mta-sts is a finding, not an exception, and nothing is fetched', async () => {
    dns.servfail.add(`_mta-sts.${DOMAIN}`);
    const result = await check(['mx1.sts-brand.test']);
    expect({ ...summary(result), record: result.record, policy: result.policy }).toEqual({
      status: 'invalid',
      record: null,
      policy: null,
      findings: [
        [
          'error',
          'The DNS lookup of _mta-sts.sts-brand.test failed (ESERVFAIL), so senders cannot find your MTA-STS record now.',
          'Check that the name servers of sts-brand.test answer for _mta-sts.sts-brand.test, then check again.',
        ],
      ],
    });
    expect(connections).toBe(0);
  });

  it.each([
    {
      name: 'RFC 8461 3.2: max_age has a maximum value of 31557600',
      text: 'version: STSv1\nmode: enforce\nmx: mx1.sts-brand.test\nmax_age: 31557601\n',
      findings: [
        [
          'error',
          'max_age is 31557601 seconds, above the 31557600 (one year) RFC 8461 allows, so senders may reject the policy.',
          'Use at most 31557600; 604800 (one week) to 31557600 are usual.',
        ],
      ],
    },
    {
      name: 'RFC 8461 3.2: max_age is plain-text digits (1*10DIGIT)',
      text: 'version: STSv1\nmode: enforce\nmx: mx1.sts-brand.test\nmax_age: 1w\n',
      findings: [
        [
          'error',
          'max_age "1w" is not a whole number of seconds, so senders reject the policy.',
          'Write max_age in seconds, e.g. "max_age: 604800" (one week).',
        ],
      ],
    },
    {
      name: 'RFC 8461 3.2: version is STSv1',
      text: 'version: STSv2\nmode: enforce\nmx: mx1.sts-brand.test\nmax_age: 604800\n',
      findings: [
        ['error', 'The MTA-STS policy says "version: STSv2"; the only version is STSv1.', 'Write "version: STSv1".'],
      ],
    },
    {
      name: 'RFC 8461 3.2: mx is required at least once unless the mode is none',
      text: 'version: STSv1\nmode: enforce\nmax_age: 604800\n',
      findings: [
        [
          'error',
          'The MTA-STS policy has mode enforce but no mx: line, so senders that apply it accept no MX host.',
          'Add a line "mx: mx1.sts-brand.test" for each MX host (or one "*.domain" pattern covering them).',
        ],
      ],
    },
    {
      name: 'RFC 8461 3.2: sts-policy-mx-value is ["*."] Domain',
      text: 'version: STSv1\nmode: enforce\nmx: mx1.sts-brand.test\nmx: mx2.sts-brand.test.\nmax_age: 604800\n',
      findings: [
        [
          'error',
          '"mx: mx2.sts-brand.test." is not a host name or a "*.domain" pattern, so it matches no MX host.',
          'Write a host name without a trailing dot, e.g. "mx: mx1.sts-brand.test", or a pattern such as "mx: *.sts-brand.test".',
        ],
      ],
    },
    {
      name: 'RFC 8461 3.2: a line that is not "name: value" is not policy syntax',
      text: 'version: STSv1\nmode: enforce\nmx = mx1.sts-brand.test\nmx: mx1.sts-brand.test\nmax_age: 604800\n',
      findings: [
        [
          'error',
          'The policy line "mx = mx1.sts-brand.test" is not "name: value", so senders may reject the policy.',
          'Write it as "name: value", e.g. "mode: enforce", or remove it.',
        ],
      ],
    },
    {
      name: 'RFC 8461 3.2: a repeated field counts once, the first',
      text: 'version: STSv1\nmode: enforce\nmx: mx1.sts-brand.test\nmax_age: 604800\nmax_age: 86400\n',
      findings: [
        [
          'warning',
          'The policy gives max_age more than once; senders use the first (max_age: 604800).',
          'Keep one max_age: line.',
        ],
      ],
    },
  ])('$name', async ({ text, findings }) => {
    policy = text;
    expect(summary(await check(['mx1.sts-brand.test']))).toMatchObject({ findings });
  });

  it('RFC 8461 3.2: the policy is served as text/plain (senders validate the media type)', async () => {
    policy = GOOD_POLICY;
    contentType = 'text/html; charset=utf-8';
    expect(summary(await check(['mx1.sts-brand.test']))).toEqual({
      status: 'invalid',
      findings: [
        [
          'error',
          'The MTA-STS policy is served as text/html, not text/plain, so senders that check the media type ignore it.',
          'Serve mta-sts.txt with "Content-Type: text/plain".',
        ],
      ],
    });
    contentType = 'text/plain; charset=utf-8';
    expect(summary(await check(['mx1.sts-brand.test']))).toEqual({ status: 'valid', findings: [] });
  });

  it('RFC 8461 3.3: a redirect is not followed, and says where it pointed', async () => {
    status = 301;
    location = 'https://www.sts-brand.test/mta-sts.txt';
    expect((await check([])).findings[0].message).toBe(
      'The MTA-STS policy could not be fetched: HTTP 301, a redirect to https://www.sts-brand.test/mta-sts.txt, which is not followed.',
    );
    expect(connections).toBe(1);
  });

  it('says what the host answered when it answered with something else than a policy', async () => {
    status = 404;
    expect((await check([])).findings[0].message).toBe('The MTA-STS policy could not be fetched: HTTP 404.');
    status = 200;
    policy = 'x'.repeat(70 * 1024);
    expect((await check([])).findings[0].message).toBe(
      'The MTA-STS policy could not be fetched: it is larger than 64 KB.',
    );
  });

  it('refuses a policy host that is not public, without connecting, in the one neutral text', async () => {
    const production = createOutboundGuard(resolver);
    for (const entry of [
      { A: ['127.0.0.1'] },
      { AAAA: ['::1'] },
      { AAAA: ['::ffff:7f00:1'] },
      { A: ['10.0.0.5'] },
      { A: ['169.254.169.254'] },
      {},
    ]) {
      dns.zone[`mta-sts.${DOMAIN}`] = entry;
      const result = await check([], { outbound: production });
      expect([entry, result.status, result.policy, result.findings[0].message]).toEqual([
        entry,
        'invalid',
        null,
        NEUTRAL,
      ]);
    }
    expect(connections).toBe(0);
  });

  it('refuses a name with one public and one private address, in either order, without connecting', async () => {
    // 127.0.0.1 stands for the public address (the seam lets it through; alone it is fetched, as above).
    for (const entry of [
      { A: ['127.0.0.1', '10.0.0.5'] },
      { A: ['169.254.169.254', '127.0.0.1'] },
      { A: ['127.0.0.1'], AAAA: ['::1'] },
      { A: ['127.0.0.1'], AAAA: ['fd00::5'] },
    ]) {
      dns.zone[`mta-sts.${DOMAIN}`] = entry;
      expect([entry, (await check([])).findings[0].message]).toEqual([entry, NEUTRAL]);
    }
    expect(connections).toBe(0);
  });

  it('tells no connection failure from another: refused, not TLS, silent, untrusted certificate', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const banner = net.createServer((socket) => socket.end('220 mail.example ESMTP\r\n'));
    const silent = net.createServer(() => {});
    const sockets: net.Socket[] = [];
    silent.on('connection', (socket) => sockets.push(socket));
    for (const server of [banner, silent]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const messages = [
        (await check([], { port: closedPort })).findings[0].message,
        (await check([], { port: (banner.address() as AddressInfo).port })).findings[0].message,
        (await check([], { port: (silent.address() as AddressInfo).port, timeoutMs: 300 })).findings[0].message,
        // Without trusting the test CA the certificate is refused, as a sender would refuse it.
        (await check([], { ca: undefined })).findings[0].message,
      ];
      expect(messages).toEqual([NEUTRAL, NEUTRAL, NEUTRAL, NEUTRAL]);
    } finally {
      for (const socket of sockets) socket.destroy();
      banner.close();
      silent.close();
    }
  });
});
