import type { BounceCause } from '@contracts/delivery-events';
import { normaliseIp } from '../platform/dns/ip-address';

/*
 * A bounce or deferral in plain words: blocked by a blocklist, refused by policy (DMARC, SPF, DKIM,
 * spam filtering), mailbox full, unknown user, rate limited, throttled for the sender's reputation,
 * or other. From the receiving server's answer (its enhanced status code and its words) and the
 * MTA's own category when it gives one. The words are checked first where they are more specific
 * than the code: a "5.7.1 ... blocked using zen.spamhaus.org" is a blocklist, not just a policy
 * refusal, and Microsoft's "rate limited due to IP reputation" is throttling, not a listing.
 */

export const CAUSE_LABELS: Record<BounceCause, string> = {
  blocklist: 'Blocked by a blocklist',
  policy: 'Policy, DMARC or authentication',
  mailbox_full: 'Mailbox full',
  unknown_user: 'Unknown user',
  rate_limited: 'Rate limited or throttled',
  reputation_throttled: 'Throttled for sender reputation',
  other: 'Other',
};

export const CAUSE_ADVICE: Record<BounceCause, string> = {
  blocklist:
    'Find the listed address under Blacklist Monitoring, remove what got it listed (a compromised account or form, an old or bought list), then ask the list to delist it.',
  policy:
    'Check the sending domain’s SPF, DKIM and DMARC under Domains: the receiver refused mail that failed them or that its filters took for spam.',
  mailbox_full:
    'Nothing to fix on your side: the mail is retried, and an address that stays full for weeks is best removed from your list.',
  unknown_user:
    'Remove these addresses from your list: they do not exist, and mailing them again lowers your reputation.',
  rate_limited:
    'Send more slowly to this receiver: open fewer connections and send fewer messages per connection, and let the deferred mail retry.',
  reputation_throttled:
    'The receiver is slowing your mail because of your sender reputation, not a listing: send less to it for a few days, mail only recipients who engage, watch complaints (Google Postmaster Tools, Microsoft SNDS, Yahoo’s complaint feedback loop) and let the deferred mail retry.',
  other: 'Read the receiving server’s answer on the failed messages for what it asks.',
};

// Throttling the receiver blames on the sender's reputation: Microsoft's 4.7.650/651 "rate limited due to
// IP reputation", Gmail's 4.7.28 "unusual rate of unsolicited mail" and 4.7.0 "very low reputation of the
// sending IP", Yahoo's TSS04 "deferred due to unexpected volume or user complaints".
const REPUTATION_THROTTLE =
  /\b(?:(?:rate[- ]limited|throttled|deferred)\b.{0,60}\b(?:reputation|unsolicited|user complaints)|unusual rate of unsolicited|low reputation of the sending ip|unexpected volume or user complaints)\b|(?<![\d.])4\.7\.(?:28|65[01])\b/i;
const BLOCKLIST =
  /\b(?:block ?list(?:ed)?|black ?list(?:ed)?|listed (?:at|on|in|by)|blocked using|dnsbl|rbl|spamhaus|spamcop|barracuda|sorbs|uceprotect|psbl|invaluement|mailspike|cloudmark|s3140|s3150|banned sending ip|bad reputation|poor reputation|ip reputation)\b/i;
const RATE_LIMIT =
  /\b(?:rate[- ]limit(?:ed|ing)?|(?:sending|message|connection|recipient) rate|throttl(?:ed|ing)|too many (?:connections|messages|recipients|concurrent|sessions)|unexpected volume|unusual rate|slow down|ts0[1-4])\b/i;
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
  if (REPUTATION_THROTTLE.test(text) || /^4\.7\.(?:28|65[01])$/.test(enhancedStatus ?? ''))
    return 'reputation_throttled';
  if (BLOCKLIST.test(text)) return 'blocklist';
  if (RATE_LIMIT.test(text) || /^[45]\.4\.5$/.test(enhancedStatus ?? '')) return 'rate_limited';
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
const RECEIVER =
  /host \S{1,255}\[[^\]]{1,45}\]|connect to \S{1,255}\[[^\]]{1,45}\](?::\d+)?|^\s*[\d.]{7,15} (?:does not like|failed after|accepted)/gi;
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
