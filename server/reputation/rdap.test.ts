import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookUpRegistration } from './rdap';

/** The shape of Verisign's RDAP answer for a .com name (https://rdap.verisign.com/com/v1/domain/...). */
const verisignAnswer = (name: string) => ({
  objectClassName: 'domain',
  handle: '2336799_DOMAIN_COM-VRSN',
  ldhName: name.toUpperCase(),
  links: [
    {
      value: `https://rdap.verisign.com/com/v1/domain/${name}`,
      rel: 'self',
      href: `https://rdap.verisign.com/com/v1/domain/${name}`,
      type: 'application/rdap+json',
    },
  ],
  status: ['client delete prohibited', 'client transfer prohibited', 'client update prohibited'],
  entities: [
    {
      objectClassName: 'entity',
      handle: '292',
      roles: ['registrar'],
      publicIds: [{ type: 'IANA Registrar ID', identifier: '292' }],
      vcardArray: [
        'vcard',
        [
          ['version', {}, 'text', '4.0'],
          ['fn', {}, 'text', 'MarkMonitor Inc.'],
        ],
      ],
      entities: [
        {
          objectClassName: 'entity',
          roles: ['abuse'],
          vcardArray: [
            'vcard',
            [
              ['version', {}, 'text', '4.0'],
              ['fn', {}, 'text', ''],
              ['tel', { type: 'voice' }, 'uri', 'tel:+1.2086851750'],
              ['email', {}, 'text', 'abusecomplaints@markmonitor.com'],
            ],
          ],
        },
      ],
    },
  ],
  events: [
    { eventAction: 'registration', eventDate: '1997-09-15T04:00:00Z' },
    { eventAction: 'expiration', eventDate: '2028-09-14T04:00:00Z' },
    { eventAction: 'last changed', eventDate: '2019-09-09T15:39:04Z' },
    { eventAction: 'last update of RDAP database', eventDate: '2026-11-26T10:02:11Z' },
  ],
  secureDNS: { delegationSigned: false },
  nameservers: [{ objectClassName: 'nameserver', ldhName: 'NS1.GOOGLE.COM' }],
  rdapConformance: ['rdap_level_0', 'icann_rdap_technical_implementation_guide_1', 'icann_rdap_response_profile_1'],
  notices: [{ title: 'Terms of Use', description: ['Service subject to Terms of Use.'], links: [] }],
});

let server: Server;
let base: string;
const requests: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '';
    requests.push(url);
    // rdap.org's part: send each query to the registry of its TLD.
    const bootstrap = url.match(/^\/bootstrap\/domain\/(.+)$/);
    if (bootstrap) {
      res.writeHead(302, { location: `/com/v1/domain/${bootstrap[1]}` }).end();
      return;
    }
    const registry = url.match(/^\/com\/v1\/domain\/(.+)$/);
    if (registry?.[1] === 'unregistered-name.com') {
      res
        .writeHead(404, { 'content-type': 'application/rdap+json' })
        .end(JSON.stringify({ errorCode: 404, title: 'Not Found' }));
    } else if (registry) {
      res.writeHead(200, { 'content-type': 'application/rdap+json' }).end(JSON.stringify(verisignAnswer(registry[1])));
    } else if (url.startsWith('/silent/')) {
      // Never answers: the look-up must give up on its own.
    } else if (url.startsWith('/huge/')) {
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      res.end(JSON.stringify({ ...verisignAnswer('huge.com'), padding: 'x'.repeat(1024 * 1024 + 1) }));
    } else if (url.startsWith('/loop/')) {
      res.writeHead(301, { location: url.replace('/loop/', '/loop/x/') }).end();
    } else if (url.startsWith('/plain/')) {
      res.writeHead(302, { location: 'http://rdap.example.net/domain/x.com' }).end();
    } else {
      res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function recordingLog() {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  const log = { warn: (obj: Record<string, unknown>, msg: string) => lines.push({ obj, msg }) } as unknown as Pick<
    Logger,
    'warn'
  >;
  return { log, lines };
}

describe('RDAP registration look-up', () => {
  it('follows the bootstrap redirect to the registry and reads the registrar and registration date', async () => {
    const { log, lines } = recordingLog();
    requests.length = 0;
    const found = await lookUpRegistration('mail.brand-one.com', { baseUrl: `${base}/bootstrap`, log });
    expect(found).toEqual({ registrar: 'MarkMonitor Inc.', registeredAt: new Date('1997-09-15T04:00:00Z') });
    // The registered domain is asked for, not the mail host.
    expect(requests).toEqual(['/bootstrap/domain/brand-one.com', '/com/v1/domain/brand-one.com']);
    expect(lines).toEqual([]);
  });

  it('knows nothing of a name the registry answers 404 for, without calling it a failure', async () => {
    const { log, lines } = recordingLog();
    expect(await lookUpRegistration('unregistered-name.com', { baseUrl: `${base}/bootstrap`, log })).toEqual({
      registrar: null,
      registeredAt: null,
    });
    expect(lines).toEqual([]);
  });

  it('gives up on a silent server after its timeout, an oversized answer, a redirect loop, a plain-http hop and a 5xx, logging each without failing', async () => {
    const cases: [string, RegExp][] = [
      ['/silent', /timed out/],
      ['/huge', /larger than 1048576 bytes/],
      ['/loop', /more than 3 redirects/],
      ['/plain', /non-https URL \(http:\/\/rdap\.example\.net\)/],
      ['/other', /HTTP 500/],
    ];
    for (const [path, reason] of cases) {
      const { log, lines } = recordingLog();
      const started = Date.now();
      const found = await lookUpRegistration('brand-one.com', { baseUrl: `${base}${path}`, log, timeoutMs: 500 });
      expect(found, path).toEqual({ registrar: null, registeredAt: null });
      expect(Date.now() - started, path).toBeLessThan(3000);
      expect(lines, path).toHaveLength(1);
      expect(String(lines[0].obj.reason), path).toMatch(reason);
    }
  });

  it('refuses plain http except for a configured server on loopback, and keeps credentials out of the log', async () => {
    const { log, lines } = recordingLog();
    const found = await lookUpRegistration('brand-one.com', {
      baseUrl: 'http://user:s3cret@rdap.example.net/?key=s3cret',
      log,
    });
    expect(found).toEqual({ registrar: null, registeredAt: null });
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain('s3cret');
  });
});
