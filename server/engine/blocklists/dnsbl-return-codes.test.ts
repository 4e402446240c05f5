import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer, loopbackResolver } from '../../test/dns-server';
import { findBlocklist, lookUpBlocklists, type DnsblCatalogueEntry } from './dnsbl';
import type { DnsResolver } from '../../platform/dns/resolver';

/*
 * Each list's answers read by its own documentation (the list's docsUrl and the sources the catalogue
 * cites), one case per documented rule, through the product resolver and the loopback DNS server.
 */

interface Case {
  /** The documented rule the case checks. */
  rule: string;
  list: string;
  answers: string[];
  status: 'listed' | 'clear' | 'unknown';
  reason: string | null;
}

const SURBL_BLOCKED =
  'The list refused the query: SURBL blocks resolvers that send it too many queries, such as shared public resolvers (127.0.0.1).';
const URIBL_REFUSED =
  'The list refused the query: URIBL refuses resolvers that send it too many queries, such as shared public resolvers (127.0.0.1).';
const outside = (answer: string) =>
  `The list answered ${answer}, which is not a listing code (the query was likely refused).`;

const CASES: Case[] = [
  // SURBL, surbl.org/lists: multi's last octet is a bitmask; the middle octets are reserved and ignored.
  {
    rule: 'surbl.org/lists: 127.0.1.64 is ABUSE (middle octets ignored)',
    list: 'surbl-multi',
    answers: ['127.0.1.64'],
    status: 'listed',
    reason: 'ABUSE: spam and abuse sites',
  },
  {
    rule: 'surbl.org/lists: 127.0.1.72 is PH + ABUSE (the bits add up)',
    list: 'surbl-multi',
    answers: ['127.0.1.72'],
    status: 'listed',
    reason: 'PH: phishing sites; ABUSE: spam and abuse sites',
  },
  {
    rule: 'surbl.org/lists: 127.0.0.64 is ABUSE',
    list: 'surbl-multi',
    answers: ['127.0.0.64'],
    status: 'listed',
    reason: 'ABUSE: spam and abuse sites',
  },
  {
    rule: 'SURBL MULTI return codes: bit 4 is DM',
    list: 'surbl-multi',
    answers: ['127.0.0.4'],
    status: 'listed',
    reason: 'DM: a disposable e-mail domain',
  },
  {
    rule: 'SURBL MULTI return codes: bit 32 is CT',
    list: 'surbl-multi',
    answers: ['127.0.0.32'],
    status: 'listed',
    reason: 'CT: a click-tracking domain seen in mail sent without confirmed opt-in',
  },
  {
    rule: 'surbl.org/faqs: the test point sets every bit (127.0.0.254)',
    list: 'surbl-multi',
    answers: ['127.0.0.254'],
    status: 'listed',
    reason:
      'DM: a disposable e-mail domain; PH: phishing sites; MW: malware sites; CT: a click-tracking domain seen in mail sent without confirmed opt-in; ABUSE: spam and abuse sites; CR: cracked (compromised) sites',
  },
  {
    rule: 'SURBL blocked subcode: bit 1 (127.0.0.1) is a blocked query',
    list: 'surbl-multi',
    answers: ['127.0.0.1'],
    status: 'unknown',
    reason: SURBL_BLOCKED,
  },
  {
    rule: 'SURBL blocked subcode: bit 1 with other middle octets (127.0.1.1) is a blocked query too',
    list: 'surbl-multi',
    answers: ['127.0.1.1'],
    status: 'unknown',
    reason: SURBL_BLOCKED.replace('127.0.0.1', '127.0.1.1'),
  },
  {
    rule: 'surbl.org/lists: bit 2 (the retired SC list) alone names no list',
    list: 'surbl-multi',
    answers: ['127.0.0.2'],
    status: 'unknown',
    reason: outside('127.0.0.2'),
  },
  {
    rule: 'SURBL announcement 2009: an answer outside 127/8 is a rewriting resolver, never a listing',
    list: 'surbl-multi',
    answers: ['198.51.100.64'],
    status: 'unknown',
    reason:
      'The list answered 198.51.100.64, which is not a listing code (a resolver on the way likely rewrote the answer).',
  },

  // URIBL, uribl.com/refused.shtml: bitmask of the 4th octet of 127.0.0.x; bit 1 means refused.
  {
    rule: 'uribl.com: 127.0.0.14 is black + grey + red',
    list: 'uribl-multi',
    answers: ['127.0.0.14'],
    status: 'listed',
    reason:
      'black: domains used by spammers; grey: bulk senders that may honour opt-outs; red: young or privacy-protected domains seen in spam (not yet black)',
  },
  {
    rule: 'uribl.com/refused.shtml: 127.0.0.1 is a refused query',
    list: 'uribl-multi',
    answers: ['127.0.0.1'],
    status: 'unknown',
    reason: URIBL_REFUSED,
  },
  {
    rule: 'uribl.com: answers are 127.0.0.x only (127.0.1.2 is none of its codes)',
    list: 'uribl-multi',
    answers: ['127.0.1.2'],
    status: 'unknown',
    reason: outside('127.0.1.2'),
  },

  // Spamhaus, docs.spamhaus.com return codes: exact codes; 127.255.255.252/254/255 are errors.
  {
    rule: 'Spamhaus return codes: ZEN 127.0.0.10 is PBL',
    list: 'spamhaus-zen',
    answers: ['127.0.0.10'],
    status: 'listed',
    reason: 'PBL: an end-user address that should not send mail directly (ISP policy)',
  },
  {
    rule: 'Spamhaus return codes: 127.255.255.254 is a query through a public or open resolver',
    list: 'spamhaus-zen',
    answers: ['127.255.255.254'],
    status: 'unknown',
    reason:
      'The list refused the query: Spamhaus does not answer queries that come through public or open resolvers (127.255.255.254).',
  },
  {
    rule: 'Spamhaus return codes: 127.255.255.255 is an excessive number of queries',
    list: 'spamhaus-dbl',
    answers: ['127.255.255.255'],
    status: 'unknown',
    reason:
      'The list refused the query: the resolver sent Spamhaus more queries than its free use allows (127.255.255.255).',
  },
  {
    rule: 'Spamhaus return codes: 127.255.255.252 is a typing error in the DNSBL name',
    list: 'spamhaus-zrd',
    answers: ['127.255.255.252'],
    status: 'unknown',
    reason: 'The list refused the query: it named a Spamhaus zone that does not exist (127.255.255.252).',
  },
  {
    rule: 'Spamhaus DBL return codes: 127.0.1.255 is an IP address queried on the DBL',
    list: 'spamhaus-dbl',
    answers: ['127.0.1.255'],
    status: 'unknown',
    reason: 'The list refused the query: the DBL answers for domain names only, never for IP addresses (127.0.1.255).',
  },
  {
    rule: 'Spamhaus return codes: a ZEN code on the DBL is none of its codes',
    list: 'spamhaus-dbl',
    answers: ['127.0.0.2'],
    status: 'unknown',
    reason: outside('127.0.0.2'),
  },

  // Validity SenderScore RPBL: a bitmask of 127.0.0.x (1 botnet, 2 noauth, 4 pristine, 8 attachments, 16 score).
  {
    rule: 'Validity RPBL: 127.0.0.4 is pristine spam traps',
    list: 'senderscore',
    answers: ['127.0.0.4'],
    status: 'listed',
    reason: 'pristine spam traps: mail to addresses that never signed up for any',
  },
  {
    rule: 'Validity RPBL: bit 1 is a botnet listing, not a refusal',
    list: 'senderscore',
    answers: ['127.0.0.1'],
    status: 'listed',
    reason: 'botnet: mail sent from a botnet',
  },
  {
    rule: 'Validity RPBL: 127.0.0.26 is noauth + suspicious attachments + Sender Score',
    list: 'senderscore',
    answers: ['127.0.0.26'],
    status: 'listed',
    reason:
      'noauth: mail that failed authentication (SPF, DKIM); suspicious attachments; a Sender Score too low to accept its mail',
  },
  {
    rule: 'Validity RPBL: 127.255.255.255 is a blocked resolver, never a listing',
    list: 'senderscore',
    answers: ['127.255.255.255'],
    status: 'unknown',
    reason: outside('127.255.255.255'),
  },

  // Exact-code lists: a code of the table is a listing, any other answer is not.
  {
    rule: 'Mailspike usage: bl answers 127.0.0.2 (z) or a rep code L5-L3',
    list: 'mailspike-bl',
    answers: ['127.0.0.11'],
    status: 'listed',
    reason: 'a very bad reputation (L4)',
  },
  {
    rule: 'Mailspike usage: a rep code above L3 is not on bl',
    list: 'mailspike-bl',
    answers: ['127.0.0.13'],
    status: 'unknown',
    reason: outside('127.0.0.13'),
  },
  {
    rule: 'Hostkarma: 127.0.0.3 (yellow) is a verdict, not a listing',
    list: 'hostkarma',
    answers: ['127.0.0.3'],
    status: 'clear',
    reason: null,
  },
  {
    rule: 'SpamRATS: all answers each sub-list it is on',
    list: 'spamrats-all',
    answers: ['127.0.0.37', '127.0.0.43'],
    status: 'listed',
    reason: 'RATS-NoPtr: no reverse DNS and abusive connections; RATS-Auth: brute-force login attempts',
  },
];

let dns: TestDnsServer;
let resolver: DnsResolver;

/** Each case asks its own name: a domain for domain lists, an address of 192.0.2.0/24 for IP lists. */
function targetOf(
  index: number,
  list: DnsblCatalogueEntry,
): { query: { ip: string } | { domain: string }; name: string } {
  if (list.kind === 'domain')
    return { query: { domain: `case-${index}.example` }, name: `case-${index}.example.${list.zone}` };
  return { query: { ip: `192.0.2.${index + 1}` }, name: `${index + 1}.2.0.192.${list.zone}` };
}

const listOf = (id: string): DnsblCatalogueEntry => {
  const entry = findBlocklist(id);
  if (!entry) throw new Error(`no list ${id} in the catalogue`);
  return entry;
};

beforeAll(async () => {
  const zone = Object.fromEntries(CASES.map((c, i) => [targetOf(i, listOf(c.list)).name, { A: c.answers }]));
  dns = await startDnsServer(zone);
  resolver = loopbackResolver(dns);
});
afterAll(() => dns?.close());

describe('each list read by its own documentation', () => {
  it.each(CASES.map((c, i) => [c.rule, c, i] as const))('%s', async (_, c, i) => {
    const list = listOf(c.list);
    const [answer] = await lookUpBlocklists(resolver, targetOf(i, list).query, { lists: [list] });
    expect(answer).toMatchObject({ listId: c.list, status: c.status, answers: c.answers, reason: c.reason });
  });
});
