import type { BounceCause } from '@contracts/delivery-events';
import { normaliseIp } from '../platform/dns/ip-address';

/*
 * A bounce or deferral in plain words: blocked by a blocklist, refused by policy (DMARC, SPF, DKIM,
 * spam filtering), mailbox full, unknown user, rate limited, or other. From the receiving server's
 * answer (its enhanced status code and its words) and the MTA's own category when it gives one.
 * The words are checked first where they are more specific than the code: a "5.7.1 ... blocked
 * using zen.spamhaus.org" is a blocklist, not just a policy refusal.
 */

export const CAUSE_LABELS: Record<BounceCause, string> = {
  blocklist: 'Blocked by a blocklist',
  policy: 'Policy, DMARC or authentication',
  mailbox_full: 'Mailbox full',
  unknown_user: 'Unknown user',
  rate_limited: 'Rate limited or throttled',
  other: 'Other',
};

const BLOCKLIST =
  /\b(?:block ?list(?:ed)?|black ?list(?:ed)?|listed (?:at|on|in|by)|blocked using|dnsbl|rbl|spamhaus|spamcop|barracuda|sorbs|uceprotect|psbl|invaluement|mailspike|cloudmark|s3140|s3150|banned sending ip|bad reputation|poor reputation|ip reputation)\b/i;
const RATE_LIMIT =
  /\b(?:rate[- ]limit(?:ed|ing)?|(?:sending|message|connection|recipient) rate|throttl(?:ed|ing)|too many (?:connections|messages|recipients|concurrent|sessions)|unexpected volume|unusual rate|slow down|ts0[1-4])\b|4\.7\.28|5\.7\.28/i;
const MAILBOX_FULL =
  /\b(?:mailbox (?:is )?full|over ?quota|quota exceeded|exceeded (?:the |its )?(?:storage|quota)|insufficient (?:system )?storage|mailbox size limit|out of storage)\b/i;
const UNKNOWN_USER =
  /\b(?:user unknown|unknown user|no such (?:user|mailbox|recipient)|(?:user|mailbox|address|recipient|account) (?:does not|doesn't) exist|does not exist|invalid (?:recipient|mailbox|address)|mailbox (?:unavailable|not found)|recipient not found|account (?:is )?(?:disabled|inactive|suspended)|no mailbox here|nosuchuser|address rejected: user unknown|unrouteable address|host or domain name not found)\b/i;
const POLICY =
  /\b(?:dmarc|spf|dkim|authenticat\w*|not authorized|policy|unsolicited|spam|junk|content rejected|message rejected|reverse dns|ptr record|access denied|relay(?:ing)? denied)\b/i;

/** The MTAs' own categories (PowerMTA bounceCat, KumoMTA bounce_classification), lower case without separators. */
const CATEGORIES: Record<string, BounceCause> = {
  badmailbox: 'unknown_user',
  inactivemailbox: 'unknown_user',
  invalidrecipient: 'unknown_user',
  baddomain: 'unknown_user',
  quotaissues: 'mailbox_full',
  spamrelated: 'blocklist',
  spamblock: 'blocklist',
  policyrelated: 'policy',
  contentrelated: 'policy',
  spamcontent: 'policy',
  virusrelated: 'policy',
  invalidsender: 'policy',
  relayingissues: 'policy',
  relaydenied: 'policy',
};

export interface CauseInput {
  enhancedStatus: string | null;
  smtpResponse: string | null;
  category?: string | null;
}

/** The plain cause of one failure. */
export function bounceCause({ enhancedStatus, smtpResponse, category }: CauseInput): BounceCause {
  const text = (smtpResponse ?? '').slice(0, 2000);
  if (BLOCKLIST.test(text)) return 'blocklist';
  if (RATE_LIMIT.test(text) || /^4\.7\.28$|^[45]\.4\.5$/.test(enhancedStatus ?? '')) return 'rate_limited';
  const code = enhancedStatus ?? '';
  if (/^[45]\.2\.2$/.test(code) || MAILBOX_FULL.test(text)) return 'mailbox_full';
  if (/^5\.1\.(?:1|2|3|6|10)$|^5\.2\.1$/.test(code) || UNKNOWN_USER.test(text)) return 'unknown_user';
  if (/^5\.7\.(?:606|6[0-4]\d)$/.test(code)) return 'blocklist'; // Microsoft: "Access denied, banned sending IP"
  if (/^[45]\.7\.\d+$/.test(code) || POLICY.test(text)) return 'policy';
  const byCategory = category ? CATEGORIES[category.toLowerCase().replace(/[^a-z]/g, '')] : undefined;
  return byCategory ?? 'other';
}

// Where the MTA names the receiving server rather than the sender: Postfix's "host mx.example.com[192.0.2.1] said:",
// "connect to mx.example.com[192.0.2.1]:25", GreenArrow's "192.0.2.1 does not like recipient" / "Remote host said".
const RECEIVER = /host \S{1,255}\[[^\]]{1,45}\]|connect to \S{1,255}\[[^\]]{1,45}\](?::\d+)?|^\s*[\d.]{7,15} (?:does not like|failed after|accepted)/gi;
const IPV4 = /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.]*\d)/g;

/**
 * The addresses a blocklist refusal names as blocked ("Client host [203.0.113.10] blocked using
 * zen.spamhaus.org", "Messages from 203.0.113.10 temporarily deferred"): every IPv4 address of the
 * answer except the receiving server's own, which the MTAs write before the answer.
 */
export function ipsNamedIn(response: string | null): string[] {
  if (!response) return [];
  const text = response.slice(0, 2000).replace(RECEIVER, ' ');
  const found = new Set<string>();
  for (const m of text.matchAll(IPV4)) {
    const ip = normaliseIp(m[0]);
    if (ip) found.add(ip);
  }
  return [...found];
}
