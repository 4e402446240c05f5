import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server';
import {
  blocklistsFor,
  DNSBL_CATALOGUE,
  DNSBL_CONCURRENCY,
  findBlocklist,
  lookUpBlocklists,
  type BlocklistAnswer,
  type DnsblCatalogueEntry,
} from './dnsbl';
import { createResolver, type DnsResolver } from '../../platform/dns/resolver';

let dns: TestDnsServer;
let resolver: DnsResolver;

const list = (id: string): DnsblCatalogueEntry => {
  const entry = findBlocklist(id);
  if (!entry) throw new Error(`no list ${id} in the catalogue`);
  return entry;
};
const byId = (answers: BlocklistAnswer[]) => Object.fromEntries(answers.map((a) => [a.listId, a]));
const V6_NIBBLES = `5.2.${'0.'.repeat(22)}8.b.d.0.1.0.0.2`;

beforeAll(async () => {
  dns = await startDnsServer({
    // 203.0.113.66: listed on ZEN (XBL) with a TXT reason, refusals and odd codes elsewhere.
    '66.113.0.203.zen.spamhaus.org': {
      A: ['127.0.0.4'],
      TXT: ['https://check.spamhaus.org/listed/?searchterm=203.0.113.66'],
    },
    '66.113.0.203.bl.spamcop.net': { A: ['127.255.255.252'] },
    '66.113.0.203.b.barracudacentral.org': { A: ['127.255.255.254'] },
    '66.113.0.203.psbl.surriel.com': { A: ['127.255.255.255'] },
    '66.113.0.203.cbl.abuseat.org': { A: ['127.0.0.9'] },
    '66.113.0.203.ix.dnsbl.manitu.net': { A: ['93.184.216.34'] },
    '66.113.0.203.hostkarma.junkemailfilter.com': { A: ['127.0.0.3'] },
    '66.113.0.203.all.spamrats.com': {
      A: ['127.0.0.36', '127.0.0.38'],
      TXT: ['Listed in RATS-Dyna', 'Listed in RATS-Spam'],
    },
    // 2001:db8::25 on ZEN and on the IPv6-only SEM list.
    [`${V6_NIBBLES}.zen.spamhaus.org`]: { A: ['127.0.0.3'] },
    [`${V6_NIBBLES}.bl.ipv6.spameatingmonkey.net`]: { A: ['127.0.0.2'] },
    // Domains.
    'spam-brand.com.dbl.spamhaus.org': {
      A: ['127.0.1.2'],
      TXT: ['https://www.spamhaus.org/query/domain/spam-brand.com'],
    },
    'spam-brand.com.multi.surbl.org': { A: ['127.0.0.88'] },
    'spam-brand.com.multi.uribl.com': { A: ['127.0.0.10'] },
    'refused.example.multi.uribl.com': { A: ['127.0.0.1'] },
    'refused.example.multi.surbl.org': { A: ['127.0.0.1'] },
    'brand.co.uk.dbl.spamhaus.org': { A: ['127.0.1.102'] },
  });
  resolver = createResolver({ servers: [dns.address], timeoutMs: 5000, tries: 1, maxCacheSeconds: 0 });
});
afterEach(() => {
  dns.silent.clear();
  dns.latencyMs = 0;
});
afterAll(() => dns?.close());

describe('the blocklist catalogue', () => {
  it('has at least 47 real lists with unique ids and zones, removal and docs links and a return-code rule each', () => {
    expect(DNSBL_CATALOGUE.length).toBeGreaterThanOrEqual(47);
    expect(new Set(DNSBL_CATALOGUE.map((l) => l.id)).size).toBe(DNSBL_CATALOGUE.length);
    expect(new Set(DNSBL_CATALOGUE.map((l) => l.zone)).size).toBe(DNSBL_CATALOGUE.length);
    for (const entry of DNSBL_CATALOGUE) {
      expect(entry.removalUrl, entry.id).toMatch(/^https?:\/\/\S+$/);
      expect(entry.docsUrl, entry.id).toMatch(/^https?:\/\/\S+$/);
      expect(Object.keys(entry.answers.listed).length, entry.id).toBeGreaterThan(0);
      expect(entry.zone, entry.id).toMatch(/^[a-z0-9.-]+\.[a-z]+$/);
      expect([1, 2, 3], entry.id).toContain(entry.tier);
    }
    expect(DNSBL_CATALOGUE.some((l) => l.kind === 'ip')).toBe(true);
    expect(DNSBL_CATALOGUE.some((l) => l.kind === 'domain')).toBe(true);
  });

  it('holds the lists a sender meets, and none that shut down', () => {
    const zones = DNSBL_CATALOGUE.map((l) => l.zone);
    expect(zones).toEqual(
      expect.arrayContaining([
        'zen.spamhaus.org',
        'dbl.spamhaus.org',
        'zrd.spamhaus.org',
        'b.barracudacentral.org',
        'bl.spamcop.net',
        'dnsbl-1.uceprotect.net',
        'dnsbl-2.uceprotect.net',
        'dnsbl-3.uceprotect.net',
        'psbl.surriel.com',
        'bl.mailspike.net',
        'z.mailspike.net',
        'multi.surbl.org',
        'multi.uribl.com',
        'all.spamrats.com',
        'dyna.spamrats.com',
        'noptr.spamrats.com',
        'spam.spamrats.com',
        'dnsbl.dronebl.org',
        'hostkarma.junkemailfilter.com',
        'ix.dnsbl.manitu.net',
        'truncate.gbudb.net',
        'db.wpbl.info',
        'ips.backscatterer.org',
        'bl.blocklist.de',
        'bl.spameatingmonkey.net',
        'bl.nordspam.com',
        'dbl.nordspam.com',
        'bl.suomispam.net',
        'dbl.suomispam.net',
        'rbl.interserver.net',
        'bl.0spam.org',
        'dnsbl.spfbl.net',
        'bl.drmx.org',
        'all.s5h.net',
        'ubl.unsubscore.com',
        'cbl.abuseat.org',
        'mail-abuse.blacklist.jippg.org',
        'dnsrbl.swinog.ch',
        'rbl.abuse.ro',
      ]),
    );
    for (const gone of [
      'dnsbl.sorbs.net',
      'dnsbl.njabl.org',
      'dnsbl.ahbl.org',
      'sbl.spamhaus.org',
      'xbl.spamhaus.org',
      'pbl.spamhaus.org',
    ]) {
      expect(zones).not.toContain(gone);
    }
  });

  it("declares each list's answers so that no code means two things: exact 127/8 codes, or single bits of the last octet", () => {
    for (const { id, answers } of DNSBL_CATALOGUE) {
      const tables = [answers.listed, answers.refused ?? {}, answers.read === 'exact' ? (answers.notListed ?? {}) : {}];
      const keys = tables.flatMap((table) => Object.keys(table));
      expect(new Set(keys).size, `${id}: a code in two tables`).toBe(keys.length);
      if (answers.read === 'exact') {
        for (const code of keys) expect(code, id).toMatch(/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/);
      } else {
        for (const bit of keys.map(Number))
          expect([1, 2, 4, 8, 16, 32, 64, 128], `${id}: ${bit} is not one bit of an octet`).toContain(bit);
        expect(['ignored', 'zero'], id).toContain(answers.middleOctets);
      }
    }
    // Only SURBL documents its middle octets as meaningless; the other bitmask lists answer 127.0.0.x.
    expect(
      DNSBL_CATALOGUE.filter((l) => l.answers.read === 'bits').map((l) => [
        l.id,
        l.answers.read === 'bits' && l.answers.middleOctets,
      ]),
    ).toEqual([
      ['surbl-multi', 'ignored'],
      ['uribl-multi', 'zero'],
      ['senderscore', 'zero'],
    ]);
  });

  it('tells which lists answer for IPv4, IPv6 and domains', () => {
    expect(blocklistsFor('ipv4').every((l) => l.kind === 'ip' && l.ipv4 !== false)).toBe(true);
    expect(blocklistsFor('ipv6').every((l) => l.kind === 'ip' && l.ipv6)).toBe(true);
    expect(blocklistsFor('domain').every((l) => l.kind === 'domain')).toBe(true);
    // + the IPv6-only SEM list
    expect(blocklistsFor('ipv4').length + blocklistsFor('domain').length + 1).toBe(DNSBL_CATALOGUE.length);
  });
});

describe('lookUpBlocklists', () => {
  it('reads listings with their meaning and TXT reason, and NXDOMAIN as clear', async () => {
    const before = Date.now();
    const answers = await lookUpBlocklists(resolver, { ip: '203.0.113.66' });
    expect(answers.map((a) => a.listId)).toEqual(blocklistsFor('ipv4').map((l) => l.id));
    const zen = byId(answers)['spamhaus-zen'];
    expect(zen).toMatchObject({
      status: 'listed',
      answers: ['127.0.0.4'],
      reason: 'XBL: an exploited or infected host',
      txt: 'https://check.spamhaus.org/listed/?searchterm=203.0.113.66',
    });
    expect(zen.checkedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(zen.checkedAt.getTime()).toBeLessThanOrEqual(Date.now());
    const rats = byId(answers)['spamrats-all'];
    expect(rats.status).toBe('listed');
    expect(rats.reason).toBe(
      'RATS-Dyna: a dynamic or residential address that should not send mail directly; RATS-Spam: sent spam to SpamRATS traps',
    );
    expect(rats.txt).toBe('Listed in RATS-Dyna Listed in RATS-Spam');
    expect(byId(answers)['uceprotect-1']).toMatchObject({ status: 'clear', answers: [], reason: null, txt: null });
  });

  it('never takes a refusal (127.255.255.252/254/255), a code outside the table or a rewritten answer for a listing', async () => {
    const answers = byId(await lookUpBlocklists(resolver, { ip: '203.0.113.66' }));
    for (const [id, code] of [
      ['spamcop', '127.255.255.252'],
      ['barracuda', '127.255.255.254'],
      ['psbl', '127.255.255.255'],
      ['spamhaus-cbl', '127.0.0.9'],
    ]) {
      expect(answers[id], id).toMatchObject({
        status: 'unknown',
        answers: [code],
        reason: `The list answered ${code}, which is not a listing code (the query was likely refused).`,
        txt: null,
      });
    }
    expect(answers.nixspam).toMatchObject({ status: 'unknown', answers: ['93.184.216.34'] });
    expect(answers.nixspam.reason).toContain('not a listing code (a resolver on the way likely rewrote the answer)');
    // Hostkarma's yellow is a documented verdict, not a listing.
    expect(answers.hostkarma).toMatchObject({ status: 'clear', answers: ['127.0.0.3'], reason: null });
  });

  it('decodes the bits of SURBL and URIBL answers, and takes their 127.0.0.1 for a refusal', async () => {
    const listed = byId(await lookUpBlocklists(resolver, { domain: 'spam-brand.com' }));
    expect(listed['surbl-multi']).toMatchObject({
      status: 'listed',
      reason: 'PH: phishing sites; MW: malware sites; ABUSE: spam and abuse sites',
    });
    expect(listed['uribl-multi']).toMatchObject({
      status: 'listed',
      reason: 'black: domains used by spammers; red: young or privacy-protected domains seen in spam (not yet black)',
    });
    const refused = byId(await lookUpBlocklists(resolver, { domain: 'refused.example' }));
    for (const [id, name] of [
      ['surbl-multi', 'SURBL blocks'],
      ['uribl-multi', 'URIBL refuses'],
    ]) {
      expect(refused[id], id).toMatchObject({
        status: 'unknown',
        reason: `The list refused the query: ${name} resolvers that send it too many queries, such as shared public resolvers (127.0.0.1).`,
      });
    }
  });

  it('asks domain lists for the registered domain, lower-cased, and refuses what is not a host name', async () => {
    const answers = await lookUpBlocklists(resolver, { domain: 'News.Spam-Brand.COM.' });
    expect(answers.map((a) => a.listId)).toEqual(blocklistsFor('domain').map((l) => l.id));
    expect(byId(answers)['spamhaus-dbl']).toMatchObject({
      status: 'listed',
      reason: 'a spam domain',
      txt: 'https://www.spamhaus.org/query/domain/spam-brand.com',
    });
    expect(byId(await lookUpBlocklists(resolver, { domain: 'mail.brand.co.uk' }))['spamhaus-dbl']).toMatchObject({
      status: 'listed',
      reason: 'a legitimate domain abused for spam',
    });
    for (const bad of ['not a domain', '192.0.2.1', 'co.uk', 'localhost', '-bad-.com', '']) {
      await expect(lookUpBlocklists(resolver, { domain: bad }), bad).rejects.toThrow(TypeError);
    }
    await expect(lookUpBlocklists(resolver, { ip: 'mail.example.com' })).rejects.toThrow(
      '"mail.example.com" is not an IP address',
    );
  });

  it('asks only IPv6 lists about an IPv6 address, by its nibbles; an IPv4-mapped address as IPv4', async () => {
    const v6 = await lookUpBlocklists(resolver, { ip: '2001:DB8:0:0:0:0:0:25' });
    expect(v6.map((a) => a.listId).sort()).toEqual(
      blocklistsFor('ipv6')
        .map((l) => l.id)
        .sort(),
    );
    expect(v6.map((a) => a.listId)).not.toContain('spamcop');
    expect(byId(v6)['spamhaus-zen']).toMatchObject({ status: 'listed', reason: 'SBL CSS: a snowshoe spam source' });
    expect(byId(v6)['sem-ipv6']).toMatchObject({ status: 'listed' });
    const mapped = await lookUpBlocklists(resolver, { ip: '::ffff:203.0.113.66' });
    expect(mapped.map((a) => a.listId)).toEqual(blocklistsFor('ipv4').map((l) => l.id));
    expect(byId(mapped)['spamhaus-zen'].status).toBe('listed');
  });

  it('gives up on a silent list within its time budget, as unknown, and still answers for the rest', async () => {
    dns.silent.add('zen.spamhaus.org');
    dns.silent.add('66.113.0.203.bl.spamcop.net');
    const started = performance.now();
    const answers = byId(await lookUpBlocklists(resolver, { ip: '203.0.113.66' }, { timeoutMs: 300 }));
    const elapsed = performance.now() - started;
    // Below the resolver's own 5 s timeout: the list's budget cut the wait, with room for a busy machine.
    expect(elapsed).toBeLessThan(3000);
    expect(answers['spamhaus-zen']).toMatchObject({
      status: 'unknown',
      answers: [],
      reason: 'The list did not answer within 0.3 s.',
    });
    expect(answers.spamcop).toMatchObject({ status: 'unknown', reason: 'The list did not answer within 0.3 s.' });
    expect(answers['spamrats-all'].status).toBe('listed');
    expect(answers['uceprotect-1'].status).toBe('clear');
  });

  it('reports a failed lookup as unknown', async () => {
    dns.servfail.add('66.113.0.203.dnsrbl.swinog.ch');
    try {
      const answers = byId(await lookUpBlocklists(resolver, { ip: '203.0.113.66' }, { lists: [list('swinog')] }));
      expect(answers.swinog).toMatchObject({ status: 'unknown', reason: 'The lookup failed (ESERVFAIL).' });
    } finally {
      dns.servfail.delete('66.113.0.203.dnsrbl.swinog.ch');
    }
  });

  it('never has more than DNSBL_CONCURRENCY queries in flight, however many lookups run at once', async () => {
    dns.latencyMs = 15;
    dns.maxInFlight = 0;
    const ips = Array.from({ length: 20 }, (_, i) => `198.51.100.${i + 1}`);
    const results = await Promise.all(ips.map((ip) => lookUpBlocklists(resolver, { ip })));
    expect(results.flat()).toHaveLength(ips.length * blocklistsFor('ipv4').length);
    expect(results.flat().every((a) => a.status === 'clear')).toBe(true);
    // The limit was reached (the test means something) and never passed.
    expect(dns.maxInFlight).toBeLessThanOrEqual(DNSBL_CONCURRENCY);
    expect(dns.maxInFlight).toBeGreaterThan(DNSBL_CONCURRENCY / 2);
  });
});
