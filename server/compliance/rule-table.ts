import type { ComplianceProvider, ComplianceRequirement } from '@contracts/compliance';

/*
 * The mailbox providers' sender rules, each in the provider's own words (quoted short) on the page that
 * publishes it (ADR 055). A rule names the requirement it asks; the same requirement asked by several
 * providers is judged once, from the same evidence.
 */

export const SOURCES: Record<ComplianceProvider, string> = {
  gmail: 'https://support.google.com/a/answer/81126',
  'gmail-bulk': 'https://support.google.com/a/answer/81126',
  yahoo: 'https://senders.yahooinc.com/best-practices/',
  microsoft:
    'https://techcommunity.microsoft.com/blog/microsoftdefenderforoffice365blog/strengthening-email-ecosystem-outlook%E2%80%99s-new-requirements-for-high%E2%80%90volume-senders/4399730',
  apple: 'https://support.apple.com/en-us/102322',
};

export interface RuleDefinition {
  provider: ComplianceProvider;
  requirement: ComplianceRequirement;
  title: string;
  wording: string;
}

export const RULES: RuleDefinition[] = [
  {
    provider: 'gmail',
    requirement: 'spf-or-dkim',
    title: 'SPF or DKIM',
    wording: 'Set up SPF or DKIM email authentication for your domain.',
  },
  {
    provider: 'gmail',
    requirement: 'dkim-key-length',
    title: 'DKIM key of 1024 bits or more',
    wording: 'Use a 1024-bit or longer DKIM key (2048-bit recommended).',
  },
  {
    provider: 'gmail',
    requirement: 'reverse-dns',
    title: 'Forward-confirmed reverse DNS',
    wording:
      'Ensure that sending domains or IPs have valid forward and reverse DNS records, also referred to as PTR records.',
  },
  {
    provider: 'gmail',
    requirement: 'tls',
    title: 'TLS connection',
    wording: 'Use a TLS connection for transmitting email.',
  },
  {
    provider: 'gmail',
    requirement: 'spam-rate',
    title: 'Spam rate below 0.3 %',
    wording:
      'Keep spam rates reported in Postmaster Tools below 0.10% and avoid ever reaching a spam rate of 0.30% or higher.',
  },
  {
    provider: 'gmail',
    requirement: 'message-format',
    title: 'RFC 5322 format',
    wording: 'Format messages according to the Internet Message Format standard (RFC 5322).',
  },
  {
    provider: 'gmail',
    requirement: 'no-provider-impersonation',
    title: 'No Gmail From: impersonation',
    wording: 'Don’t impersonate Gmail From: headers.',
  },
  {
    provider: 'gmail-bulk',
    requirement: 'spf-and-dkim',
    title: 'SPF and DKIM',
    wording: 'Set up SPF and DKIM email authentication for your domain.',
  },
  {
    provider: 'gmail-bulk',
    requirement: 'dmarc-published',
    title: 'DMARC published',
    wording:
      'Set up DMARC email authentication for your sending domain. Your DMARC enforcement policy can be set to none.',
  },
  {
    provider: 'gmail-bulk',
    requirement: 'dmarc-aligned',
    title: 'From: aligned with SPF or DKIM',
    wording: "The domain in the sender's From: header must be aligned with either the SPF domain or the DKIM domain.",
  },
  {
    provider: 'gmail-bulk',
    requirement: 'one-click-unsubscribe',
    title: 'One-click unsubscribe',
    wording: 'Marketing messages and subscribed messages must support one-click unsubscribe.',
  },
  {
    provider: 'yahoo',
    requirement: 'spf-and-dkim',
    title: 'SPF and DKIM',
    wording: 'Authenticate your mail: implement SPF and DKIM.',
  },
  {
    provider: 'yahoo',
    requirement: 'dmarc-published',
    title: 'DMARC published',
    wording: 'Publish a valid DMARC policy with at least p=none.',
  },
  {
    provider: 'yahoo',
    requirement: 'dmarc-aligned',
    title: 'From: aligned with SPF or DKIM',
    wording: 'Your From: domain must be aligned with either the SPF or DKIM domain.',
  },
  {
    provider: 'yahoo',
    requirement: 'one-click-unsubscribe',
    title: 'One-click unsubscribe',
    wording: 'Enable a functioning list unsubscribe: support one-click unsubscribe (RFC 8058).',
  },
  {
    provider: 'yahoo',
    requirement: 'spam-rate',
    title: 'Spam complaint rate below 0.3 %',
    wording: 'Keep your spam complaint rate below 0.3%.',
  },
  {
    provider: 'yahoo',
    requirement: 'reverse-dns',
    title: 'Forward-confirmed reverse DNS',
    wording: 'Have valid forward and reverse DNS records for your sending IPs.',
  },
  {
    provider: 'yahoo',
    requirement: 'message-format',
    title: 'RFC 5322 format',
    wording: 'Comply with RFC 5321 and RFC 5322.',
  },
  {
    provider: 'microsoft',
    requirement: 'spf-and-dkim',
    title: 'SPF and DKIM pass',
    wording: 'SPF: must pass for the sending domain. DKIM: must pass to validate email integrity and authenticity.',
  },
  {
    provider: 'microsoft',
    requirement: 'dmarc-published',
    title: 'DMARC published',
    wording: 'DMARC: at least p=none.',
  },
  {
    provider: 'microsoft',
    requirement: 'dmarc-aligned',
    title: 'From: aligned with SPF or DKIM',
    wording: 'DMARC: align with either SPF or DKIM (preferably both).',
  },
  {
    provider: 'apple',
    requirement: 'spf-and-dkim',
    title: 'SPF and DKIM',
    wording:
      'Make use of Sender Policy Framework (SPF) and DomainKeys Identified Mail (DKIM) to authenticate your emails.',
  },
  {
    provider: 'apple',
    requirement: 'reverse-dns',
    title: 'Reverse DNS',
    wording: 'Publish reverse DNS with your domain to help identify your IP addresses.',
  },
  {
    provider: 'apple',
    requirement: 'message-format',
    title: 'RFC 5322 format',
    wording: 'Ensure emails are compliant with RFC 5322.',
  },
];
