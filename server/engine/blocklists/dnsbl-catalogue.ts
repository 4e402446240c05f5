/*
 * The DNS blocklists InboxPulse checks: lists that operate today, each with the return codes its
 * own documentation gives (docsUrl, and the sources named beside the list).
 *
 * How answers are read (dnsbl.ts). Every list declares `answers`, one of two rules:
 *  - exact codes: an A answer is read whole; `listed` answers are listings, `refused` answers are
 *    the list saying it would not answer (a public resolver, too many queries, a wrong query), and
 *    `notListed` answers are documented verdicts that are not listings (an allow or neutral verdict).
 *  - bits: each set bit of the answer's last octet names a sub-list (SURBL, URIBL, Validity), and a
 *    `refused` bit means the query was refused, whatever else is set. `middleOctets` says which
 *    answers are read: 'ignored' reads any 127.x.y.z (SURBL documents the middle octets as reserved,
 *    to be ignored: 127.0.1.64 is ABUSE); 'zero' reads 127.0.0.z only, as the list documents it.
 * Any other answer (127.255.255.x from a list that does not document it, an answer a resolver
 * rewrote) is outside the list's table: unknown, never a listing.
 *
 * Left out on purpose: lists that have shut down (SORBS closed in 2024, NJABL, AHBL, Spamhaus'
 * separate sbl/xbl/pbl zones, which ZEN already answers for and would count twice), lists that
 * answer only with a subscriber key in the query name (Abusix, Invaluement, Spamhaus DQS), and
 * allow lists (DNSWL, Mailspike WL, Spamhaus SWL): they say nothing bad about a sender.
 *
 * How tiers were chosen: how much mail a listing costs a sender.
 *  1: the large mailbox providers and the widely deployed filtering products (Microsoft, Gmail's
 *     and Yahoo's postmaster guidance, Barracuda and Proofpoint appliances, SpamAssassin and rspamd
 *     defaults) block or score heavily on it: Spamhaus, Barracuda, SpamCop, SURBL, URIBL.
 *  2: widely used by ISPs, hosters and self-run mail servers, and shipped in common filter
 *     configurations (Mailspike, PSBL, UCEPROTECT level 1, NiX Spam, SpamRATS, Lashback, ...).
 *  3: minor, regional or aggressive lists (whole networks, new domains, backscatter) that few
 *     receivers reject on; worth knowing, rarely the reason mail is lost.
 */

export interface DnsblCatalogueEntry {
  /** Stable slug, e.g. 'spamhaus-zen'. */
  id: string;
  name: string;
  zone: string;
  kind: 'ip' | 'domain';
  /** 1 = the large mailbox providers block on it, 2 = widely used, 3 = minor/aggressive. */
  tier: 1 | 2 | 3;
  /** IP lists: answers queries for IPv6 addresses (32 nibbles). */
  ipv6: boolean;
  /** IP lists that answer only for IPv6 (a separate IPv6 zone); absent means IPv4 is answered. */
  ipv4?: false;
  /** How the list's A answers read (see the top of this file). */
  answers: ExactCodes | LastOctetBits;
  removalUrl: string;
  /** Where the code table comes from. */
  docsUrl: string;
}

export interface ExactCodes {
  read: 'exact';
  /** A answer -> what the listing means. */
  listed: Record<string, string>;
  /** A answer -> why the list refused the query (a sentence); never a listing. */
  refused?: Record<string, string>;
  /** A answer -> the documented verdict that is not a listing: clear. */
  notListed?: Record<string, string>;
}

export interface LastOctetBits {
  read: 'bits';
  /** Bit of the last octet -> what the listing means. */
  listed: Record<number, string>;
  /** Bit of the last octet -> why the list refused the query (a sentence); never a listing. */
  refused?: Record<number, string>;
  middleOctets: 'ignored' | 'zero';
}

const exact = (listed: Record<string, string>, more: Pick<ExactCodes, 'refused' | 'notListed'> = {}): ExactCodes => ({
  read: 'exact',
  listed,
  ...more,
});
const listed = (meaning: string) => exact({ '127.0.0.2': meaning });

const SPAMHAUS_LOOKUP = 'https://check.spamhaus.org/';
const SPAMHAUS_DOCS =
  'https://docs.spamhaus.com/datasets/docs/source/40-real-world-usage/PublicMirrors/MTAs/020-Postfix.html';
const SEM_DOCS = 'https://spameatingmonkey.com/lists';
const SPAMRATS_REMOVAL = 'https://www.spamrats.com/removal.php';
const SPAMRATS_DOCS = 'https://www.spamrats.com/lists.php';
const UCEPROTECT_REMOVAL = 'https://www.uceprotect.net/en/rblcheck.php';

// Spamhaus' error codes on its public mirror zones (SPAMHAUS_DOCS; https://www.spamhaus.org/returnc/pub/
// and /returnc/vol/): a mistyped zone, a public or open resolver, too many queries.
const SPAMHAUS_REFUSED = {
  '127.255.255.252': 'it named a Spamhaus zone that does not exist',
  '127.255.255.254': 'Spamhaus does not answer queries that come through public or open resolvers',
  '127.255.255.255': 'the resolver sent Spamhaus more queries than its free use allows',
};

/*
 * SURBL multi (https://www.surbl.org/lists): "an address whose last octet indicates which lists it
 * belongs to ... Octets other than the first and last one are reserved for future use and should be
 * ignored." DM (4) and CT (32) were added in SURBL's "New Return Codes Added to SURBL MULTI"
 * announcement (SpamAssassin bug 8134); bit 2 (SC) was retired into ABUSE. Bit 1 is SURBL's
 * "blocked" subcode (SpamAssassin's and rspamd's SURBL_BLOCKED): the resolver's queries are refused.
 */
const SURBL_ANSWERS: LastOctetBits = {
  read: 'bits',
  listed: {
    4: 'DM: a disposable e-mail domain',
    8: 'PH: phishing sites',
    16: 'MW: malware sites',
    32: 'CT: a click-tracking domain seen in mail sent without confirmed opt-in',
    64: 'ABUSE: spam and abuse sites',
    128: 'CR: cracked (compromised) sites',
  },
  refused: { 1: 'SURBL blocks resolvers that send it too many queries, such as shared public resolvers' },
  middleOctets: 'ignored',
};

/*
 * URIBL multi (https://uribl.com/about.shtml, https://uribl.com/refused.shtml): 127.0.0.x, "bitmask
 * checking of the 4th octet"; "All queries that we refuse, we return a 127.0.0.1 response to, as bit
 * 0x1 is not used for domain classification."
 */
const URIBL_ANSWERS: LastOctetBits = {
  read: 'bits',
  listed: {
    2: 'black: domains used by spammers',
    4: 'grey: bulk senders that may honour opt-outs',
    8: 'red: young or privacy-protected domains seen in spam (not yet black)',
  },
  refused: { 1: 'URIBL refuses resolvers that send it too many queries, such as shared public resolvers' },
  middleOctets: 'zero',
};

/*
 * Validity's Return Path Blocklist answers a bitmask of 127.0.0.x: every code it gives (1-8, 10, 11,
 * 14-16, 18, 20, 22, 26, as rspamd's table of them lists, github.com/rspamd/rspamd/pull/5077) is a sum
 * of these five bits. 127.255.255.255 means the resolver is not registered with Validity
 * (https://knowledge.validity.com/hc/en-us/articles/20961730681243): outside the table, so unknown.
 */
const SENDERSCORE_ANSWERS: LastOctetBits = {
  read: 'bits',
  listed: {
    1: 'botnet: mail sent from a botnet',
    2: 'noauth: mail that failed authentication (SPF, DKIM)',
    4: 'pristine spam traps: mail to addresses that never signed up for any',
    8: 'suspicious attachments',
    16: 'a Sender Score too low to accept its mail',
  },
  middleOctets: 'zero',
};

// ZRD: the last octet is how many hours ago the domain was first seen (2-24).
const ZRD_CODES = Object.fromEntries(
  Array.from({ length: 23 }, (_, i) => [
    `127.0.2.${i + 2}`,
    `a domain first seen ${i + 2} hours ago (zero reputation)`,
  ]),
);

const DRONEBL_CLASSES: Record<number, string> = {
  2: 'sample data',
  3: 'IRC drone',
  5: 'bottler',
  6: 'unknown spambot or drone',
  7: 'DDoS drone',
  8: 'open SOCKS proxy',
  9: 'open HTTP proxy',
  10: 'proxy chain',
  11: 'web page proxy',
  12: 'open DNS resolver',
  13: 'brute force attacker',
  14: 'open Wingate proxy',
  15: 'compromised router or gateway',
  16: 'autorooting worm',
  17: 'automatically detected botnet IP',
  18: 'DNS/MX type hostname detected on IRC',
  19: 'abused VPN service',
  255: 'uncategorised threat',
};

export const DNSBL_CATALOGUE: readonly DnsblCatalogueEntry[] = [
  // Tier 1: IP lists
  {
    id: 'spamhaus-zen',
    name: 'Spamhaus ZEN',
    zone: 'zen.spamhaus.org',
    kind: 'ip',
    tier: 1,
    ipv6: true,
    answers: exact(
      {
        '127.0.0.2': 'SBL: a known spam source',
        '127.0.0.3': 'SBL CSS: a snowshoe spam source',
        '127.0.0.4': 'XBL: an exploited or infected host',
        '127.0.0.5': 'XBL: an exploited or infected host',
        '127.0.0.6': 'XBL: an exploited or infected host',
        '127.0.0.7': 'XBL: an exploited or infected host',
        '127.0.0.9': 'DROP: a hijacked network',
        '127.0.0.10': 'PBL: an end-user address that should not send mail directly (ISP policy)',
        '127.0.0.11': 'PBL: an end-user address that should not send mail directly (Spamhaus)',
      },
      { refused: SPAMHAUS_REFUSED },
    ),
    removalUrl: SPAMHAUS_LOOKUP,
    docsUrl: SPAMHAUS_DOCS,
  },
  {
    id: 'spamhaus-cbl',
    name: 'Spamhaus CBL',
    zone: 'cbl.abuseat.org',
    kind: 'ip',
    tier: 1,
    ipv6: false,
    answers: listed('CBL: a host sending spam through malware, a botnet or an open proxy'),
    removalUrl: SPAMHAUS_LOOKUP,
    docsUrl: 'https://www.spamhaus.org/blocklists/exploits-blocklist/',
  },
  {
    id: 'barracuda',
    name: 'Barracuda',
    zone: 'b.barracudacentral.org',
    kind: 'ip',
    tier: 1,
    ipv6: false,
    answers: listed('listed by Barracuda as a spam source'),
    removalUrl: 'https://www.barracudacentral.org/rbl/removal-request',
    docsUrl: 'https://www.barracudacentral.org/rbl/how-to-use',
  },
  {
    id: 'spamcop',
    name: 'SpamCop',
    zone: 'bl.spamcop.net',
    kind: 'ip',
    tier: 1,
    ipv6: false,
    answers: listed('reported as a spam source by SpamCop users'),
    removalUrl: 'https://www.spamcop.net/bl.shtml',
    docsUrl: 'https://www.spamcop.net/fom-serve/cache/291.html',
  },
  // Tier 1: domain lists
  {
    id: 'spamhaus-dbl',
    name: 'Spamhaus DBL',
    zone: 'dbl.spamhaus.org',
    kind: 'domain',
    tier: 1,
    ipv6: false,
    answers: exact(
      {
        '127.0.1.2': 'a spam domain',
        '127.0.1.4': 'a phishing domain',
        '127.0.1.5': 'a malware domain',
        '127.0.1.6': 'a botnet command and control domain',
        '127.0.1.102': 'a legitimate domain abused for spam',
        '127.0.1.103': 'a legitimate domain abused as a spammed redirector',
        '127.0.1.104': 'a legitimate domain abused for phishing',
        '127.0.1.105': 'a legitimate domain abused for malware',
        '127.0.1.106': 'a legitimate domain abused for botnet command and control',
      },
      {
        refused: {
          ...SPAMHAUS_REFUSED,
          '127.0.1.255': 'the DBL answers for domain names only, never for IP addresses',
        },
      },
    ),
    removalUrl: SPAMHAUS_LOOKUP,
    docsUrl: SPAMHAUS_DOCS,
  },
  {
    id: 'spamhaus-zrd',
    name: 'Spamhaus ZRD',
    zone: 'zrd.spamhaus.org',
    kind: 'domain',
    tier: 1,
    ipv6: false,
    answers: exact(ZRD_CODES, { refused: SPAMHAUS_REFUSED }),
    removalUrl: SPAMHAUS_LOOKUP,
    docsUrl: 'https://www.spamhaus.org/blocklists/zero-reputation-domain/',
  },
  {
    id: 'surbl-multi',
    name: 'SURBL',
    zone: 'multi.surbl.org',
    kind: 'domain',
    tier: 1,
    ipv6: false,
    answers: SURBL_ANSWERS,
    removalUrl: 'https://www.surbl.org/surbl-analysis',
    docsUrl: 'https://www.surbl.org/lists',
  },
  {
    id: 'uribl-multi',
    name: 'URIBL',
    zone: 'multi.uribl.com',
    kind: 'domain',
    tier: 1,
    ipv6: false,
    answers: URIBL_ANSWERS,
    removalUrl: 'https://admin.uribl.com/',
    docsUrl: 'https://uribl.com/about.shtml',
  },

  // Tier 2: IP lists
  {
    id: 'mailspike-bl',
    name: 'Mailspike BL',
    zone: 'bl.mailspike.net',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: exact({
      '127.0.0.2': 'a spam source seen by Mailspike (zombie or spam traps)',
      '127.0.0.10': 'the worst reputation (L5)',
      '127.0.0.11': 'a very bad reputation (L4)',
      '127.0.0.12': 'a bad reputation (L3)',
    }),
    removalUrl: 'https://mailspike.io/ip_verify',
    docsUrl: 'https://mailspike.io/usage',
  },
  {
    id: 'mailspike-z',
    name: 'Mailspike Z',
    zone: 'z.mailspike.net',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: listed('a zero-hour spam source (seen in a spam wave just now)'),
    removalUrl: 'https://mailspike.io/ip_verify',
    docsUrl: 'https://mailspike.io/usage',
  },
  {
    id: 'psbl',
    name: 'PSBL',
    zone: 'psbl.surriel.com',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: listed('sent mail to PSBL spam traps'),
    removalUrl: 'https://psbl.org/remove',
    docsUrl: 'https://psbl.org/',
  },
  {
    id: 'uceprotect-1',
    name: 'UCEPROTECT Level 1',
    zone: 'dnsbl-1.uceprotect.net',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: listed('this IP sent mail to UCEPROTECT spam traps'),
    removalUrl: UCEPROTECT_REMOVAL,
    docsUrl: 'https://www.uceprotect.net/en/index.php?m=3&s=3',
  },
  {
    id: 'spamrats-all',
    name: 'SpamRATS All',
    zone: 'all.spamrats.com',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: exact({
      '127.0.0.36': 'RATS-Dyna: a dynamic or residential address that should not send mail directly',
      '127.0.0.37': 'RATS-NoPtr: no reverse DNS and abusive connections',
      '127.0.0.38': 'RATS-Spam: sent spam to SpamRATS traps',
      '127.0.0.43': 'RATS-Auth: brute-force login attempts',
    }),
    removalUrl: SPAMRATS_REMOVAL,
    docsUrl: SPAMRATS_DOCS,
  },
  {
    id: 'spamrats-dyna',
    name: 'SpamRATS Dyna',
    zone: 'dyna.spamrats.com',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: exact({ '127.0.0.36': 'RATS-Dyna: a dynamic or residential address that should not send mail directly' }),
    removalUrl: SPAMRATS_REMOVAL,
    docsUrl: SPAMRATS_DOCS,
  },
  {
    id: 'spamrats-noptr',
    name: 'SpamRATS NoPtr',
    zone: 'noptr.spamrats.com',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: exact({ '127.0.0.37': 'RATS-NoPtr: no reverse DNS and abusive connections' }),
    removalUrl: SPAMRATS_REMOVAL,
    docsUrl: SPAMRATS_DOCS,
  },
  {
    id: 'spamrats-spam',
    name: 'SpamRATS Spam',
    zone: 'spam.spamrats.com',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: exact({ '127.0.0.38': 'RATS-Spam: sent spam to SpamRATS traps' }),
    removalUrl: SPAMRATS_REMOVAL,
    docsUrl: SPAMRATS_DOCS,
  },
  {
    id: 'nixspam',
    name: 'NiX Spam',
    zone: 'ix.dnsbl.manitu.net',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: listed('sent spam seen by NiX Spam (heise)'),
    removalUrl: 'https://www.nixspam.net/',
    docsUrl: 'https://www.nixspam.net/',
  },
  {
    id: 'gbudb-truncate',
    name: 'GBUdb Truncate',
    zone: 'truncate.gbudb.net',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: listed('sends almost only spam by GBUdb statistics'),
    removalUrl: 'https://www.gbudb.com/truncate/',
    docsUrl: 'https://www.gbudb.com/truncate/',
  },
  {
    id: 'lashback-ubl',
    name: 'Lashback UBL',
    zone: 'ubl.unsubscore.com',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: listed('abuses unsubscribe requests (sends to addresses that unsubscribed)'),
    removalUrl: 'https://blacklist.lashback.com/',
    docsUrl: 'https://blacklist.lashback.com/',
  },
  {
    id: 'senderscore',
    name: 'Validity SenderScore',
    zone: 'bl.score.senderscore.com',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: SENDERSCORE_ANSWERS,
    removalUrl: 'https://www.senderscore.org/blocklistlookup/',
    docsUrl: 'https://www.senderscore.org/blocklistlookup/',
  },
  {
    id: 'dronebl',
    name: 'DroneBL',
    zone: 'dnsbl.dronebl.org',
    kind: 'ip',
    tier: 2,
    ipv6: true,
    answers: exact(
      Object.fromEntries(Object.entries(DRONEBL_CLASSES).map(([n, meaning]) => [`127.0.0.${n}`, meaning])),
    ),
    removalUrl: 'https://dronebl.org/lookup',
    docsUrl: 'https://dronebl.org/classes',
  },
  {
    id: 'hostkarma',
    name: 'Junk Email Filter Hostkarma',
    zone: 'hostkarma.junkemailfilter.com',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: exact(
      { '127.0.0.2': 'black: a source of spam', '127.0.0.4': 'brown: sends spam, not yet black' },
      {
        notListed: {
          '127.0.0.1': 'white: a trusted source of mail',
          '127.0.0.3': 'yellow: sends both spam and good mail (a large provider)',
          '127.0.0.5': 'NOBL: should not be blocklisted',
        },
      },
    ),
    removalUrl: 'https://ipadmin.junkemailfilter.com/remove.php',
    docsUrl: 'http://wiki.junkemailfilter.com/index.php/Spam_DNS_Lists',
  },
  {
    id: 'blocklist-de',
    name: 'blocklist.de',
    zone: 'bl.blocklist.de',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: listed('reported for attacks (mail, SSH, web logins and others) by blocklist.de servers'),
    removalUrl: 'https://www.blocklist.de/en/delist.html',
    docsUrl: 'https://www.blocklist.de/en/rbldns.html',
  },
  {
    id: 'sem-black',
    name: 'SpamEatingMonkey SEM-BLACK',
    zone: 'bl.spameatingmonkey.net',
    kind: 'ip',
    tier: 2,
    ipv6: false,
    answers: listed('sent mail to SpamEatingMonkey traps or reported by its trusted users'),
    removalUrl: 'https://spameatingmonkey.com/lookup',
    docsUrl: SEM_DOCS,
  },

  // Tier 3: IP lists
  {
    id: 'uceprotect-2',
    name: 'UCEPROTECT Level 2',
    zone: 'dnsbl-2.uceprotect.net',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('the allocation this IP belongs to sent too much mail to UCEPROTECT spam traps'),
    removalUrl: UCEPROTECT_REMOVAL,
    docsUrl: 'https://www.uceprotect.net/en/index.php?m=3&s=4',
  },
  {
    id: 'uceprotect-3',
    name: 'UCEPROTECT Level 3',
    zone: 'dnsbl-3.uceprotect.net',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('the network (ASN) this IP belongs to sent too much mail to UCEPROTECT spam traps'),
    removalUrl: UCEPROTECT_REMOVAL,
    docsUrl: 'https://www.uceprotect.net/en/index.php?m=3&s=5',
  },
  {
    id: 'sem-backscatter',
    name: 'SpamEatingMonkey SEM-BACKSCATTER',
    zone: 'backscatter.spameatingmonkey.net',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('sent bounces (null sender) to SpamEatingMonkey traps'),
    removalUrl: 'https://spameatingmonkey.com/lookup',
    docsUrl: SEM_DOCS,
  },
  {
    id: 'sem-ipv6',
    name: 'SpamEatingMonkey SEM-IPV6BL',
    zone: 'bl.ipv6.spameatingmonkey.net',
    kind: 'ip',
    tier: 3,
    ipv6: true,
    ipv4: false,
    answers: listed('an IPv6 source that sent mail to SpamEatingMonkey traps'),
    removalUrl: 'https://spameatingmonkey.com/lookup',
    docsUrl: SEM_DOCS,
  },
  {
    id: 'backscatterer',
    name: 'Backscatterer',
    zone: 'ips.backscatterer.org',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('sends backscatter (bounces or autoreplies to forged senders)'),
    removalUrl: 'https://www.backscatterer.org/?target=test',
    docsUrl: 'https://www.backscatterer.org/?target=usage',
  },
  {
    id: 'wpbl',
    name: 'WPBL',
    zone: 'db.wpbl.info',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('reported as a spam source by WPBL members'),
    removalUrl: 'https://www.wpbl.info/',
    docsUrl: 'https://www.wpbl.info/',
  },
  {
    id: 'nordspam-bl',
    name: 'Nordspam BL',
    zone: 'bl.nordspam.com',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('sent spam to Nordic mailboxes seen by Nordspam'),
    removalUrl: 'https://www.nordspam.com/delist/',
    docsUrl: 'https://www.nordspam.com/usage/',
  },
  {
    id: 'suomispam-bl',
    name: 'Suomispam BL',
    zone: 'bl.suomispam.net',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('sent spam to Finnish mailboxes seen by Suomispam'),
    removalUrl: 'https://suomispam.net/',
    docsUrl: 'https://suomispam.net/',
  },
  {
    id: 'interserver',
    name: 'InterServer RBL',
    zone: 'rbl.interserver.net',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('attacked or spammed InterServer hosts'),
    removalUrl: 'https://rbl.interserver.net/',
    docsUrl: 'https://rbl.interserver.net/',
  },
  {
    id: '0spam',
    name: '0spam',
    zone: 'bl.0spam.org',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('sent mail to 0spam spam traps'),
    removalUrl: 'https://0spam.org/',
    docsUrl: 'https://0spam.org/',
  },
  {
    id: 'spfbl',
    name: 'SPFBL',
    zone: 'dnsbl.spfbl.net',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: exact({
      '127.0.0.2': 'a bad reputation (confirmed spam)',
      '127.0.0.3': 'a suspect source (suspected spam, or not compliant with RFC 5321)',
      '127.0.0.4': 'not a mail server (an end-user, NAT or residential address)',
    }),
    removalUrl: 'https://spfbl.net/en/delist/',
    docsUrl: 'https://spfbl.net/en/dnsbl/',
  },
  {
    id: 'drmx',
    name: 'DRMX',
    zone: 'bl.drmx.org',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('sent mail to DRMX spam traps'),
    removalUrl: 'https://drmx.org/',
    docsUrl: 'https://drmx.org/',
  },
  {
    id: 's5h',
    name: 's5h.net',
    zone: 'all.s5h.net',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('sent spam or attacked s5h.net hosts'),
    removalUrl: 'https://www.s5h.net/rbl/',
    docsUrl: 'https://www.s5h.net/rbl/',
  },
  {
    id: 'jippg',
    name: 'JIPPG',
    zone: 'mail-abuse.blacklist.jippg.org',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('sent spam seen by JIPPG'),
    removalUrl: 'https://blacklist.jippg.org/',
    docsUrl: 'https://blacklist.jippg.org/',
  },
  {
    id: 'swinog',
    name: 'SwiNOG DNSRBL',
    zone: 'dnsrbl.swinog.ch',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: exact({ '127.0.0.3': 'sent mail to ImproWare/SwiNOG spam traps' }),
    removalUrl: 'https://antispam.imp.ch/',
    docsUrl: 'https://antispam.imp.ch/',
  },
  {
    id: 'abuse-ro-rbl',
    name: 'Abuse.ro RBL',
    zone: 'rbl.abuse.ro',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('sent spam seen by Abuse.ro'),
    removalUrl: 'https://abuse.ro/',
    docsUrl: 'https://abuse.ro/',
  },
  {
    id: 'inps',
    name: 'inps.de DNSBL',
    zone: 'dnsbl.inps.de',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('sent spam to inps.de mailboxes'),
    removalUrl: 'http://dnsbl.inps.de/',
    docsUrl: 'http://dnsbl.inps.de/index.cgi?lang=en',
  },
  {
    id: 'virusfree',
    name: 'VirusFree BIP',
    zone: 'bip.virusfree.cz',
    kind: 'ip',
    tier: 3,
    ipv6: false,
    answers: listed('sent viruses or spam seen by VirusFree.cz'),
    removalUrl: 'https://www.virusfree.cz/en/',
    docsUrl: 'https://www.virusfree.cz/en/',
  },

  // Tier 3: domain lists
  {
    id: 'sem-uribl',
    name: 'SpamEatingMonkey SEM-URI',
    zone: 'uribl.spameatingmonkey.net',
    kind: 'domain',
    tier: 3,
    ipv6: false,
    answers: listed('a domain found in spam at SpamEatingMonkey traps'),
    removalUrl: 'https://spameatingmonkey.com/lookup',
    docsUrl: SEM_DOCS,
  },
  {
    id: 'sem-urired',
    name: 'SpamEatingMonkey SEM-URIRED',
    zone: 'urired.spameatingmonkey.net',
    kind: 'domain',
    tier: 3,
    ipv6: false,
    answers: listed('a domain seen in spam, listed more aggressively than SEM-URI'),
    removalUrl: 'https://spameatingmonkey.com/lookup',
    docsUrl: SEM_DOCS,
  },
  {
    id: 'sem-fresh15',
    name: 'SpamEatingMonkey SEM-FRESH15',
    zone: 'fresh15.spameatingmonkey.net',
    kind: 'domain',
    tier: 3,
    ipv6: false,
    answers: listed('a domain registered within the last 15 days'),
    removalUrl: 'https://spameatingmonkey.com/lookup',
    docsUrl: SEM_DOCS,
  },
  {
    id: 'nordspam-dbl',
    name: 'Nordspam DBL',
    zone: 'dbl.nordspam.com',
    kind: 'domain',
    tier: 3,
    ipv6: false,
    answers: listed('a domain found in spam seen by Nordspam'),
    removalUrl: 'https://www.nordspam.com/delist/',
    docsUrl: 'https://www.nordspam.com/usage/',
  },
  {
    id: 'suomispam-dbl',
    name: 'Suomispam DBL',
    zone: 'dbl.suomispam.net',
    kind: 'domain',
    tier: 3,
    ipv6: false,
    answers: listed('a domain found in spam seen by Suomispam'),
    removalUrl: 'https://suomispam.net/',
    docsUrl: 'https://suomispam.net/',
  },
  {
    id: 'abuse-ro-uribl',
    name: 'Abuse.ro URIBL',
    zone: 'uribl.abuse.ro',
    kind: 'domain',
    tier: 3,
    ipv6: false,
    answers: listed('a domain found in spam seen by Abuse.ro'),
    removalUrl: 'https://abuse.ro/',
    docsUrl: 'https://abuse.ro/',
  },
];

const BY_ID = new Map(DNSBL_CATALOGUE.map((entry) => [entry.id, entry]));

export function findBlocklist(id: string): DnsblCatalogueEntry | undefined {
  return BY_ID.get(id);
}

const FOR_TARGET = {
  ipv4: DNSBL_CATALOGUE.filter((entry) => entry.kind === 'ip' && entry.ipv4 !== false),
  ipv6: DNSBL_CATALOGUE.filter((entry) => entry.kind === 'ip' && entry.ipv6),
  domain: DNSBL_CATALOGUE.filter((entry) => entry.kind === 'domain'),
} as const;

/** The lists that answer for an IPv4 address, an IPv6 address, or a domain name. */
export function blocklistsFor(target: 'ipv4' | 'ipv6' | 'domain'): readonly DnsblCatalogueEntry[] {
  return FOR_TARGET[target];
}
