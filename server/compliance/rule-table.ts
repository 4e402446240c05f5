import type { ComplianceProvider, ComplianceRequirement } from '@contracts/compliance';

/*
 * The mailbox providers' sender rules, each in the provider's own words on the page that publishes it (ADR 055),
 * as the pages read in 2025-2026 (checked against the dated copies kept by github.com/azumakuniyuki/
 * feb-2024-no-auth-no-entry: Google 2026-03-11, Yahoo 2025-04-10, Microsoft 2025-08-02, Apple 2025-02-26).
 * Where a provider words one requirement in two places (Yahoo's list item and its sub-items), the sentences are
 * joined with a full stop. A rule names the requirement it asks; the same requirement asked by several providers is
 * judged from the same evidence, by the provider's own terms where they differ (Yahoo accepts a mailto: unsubscribe).
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
    wording: 'Set up SPF or DKIM email authentication for your sending domains.',
  },
  {
    provider: 'gmail',
    requirement: 'dkim-key-length',
    title: 'DKIM key of 1024 bits or more',
    wording: 'Sending to personal Gmail accounts requires a DKIM key of 1024 bits or longer.',
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
    wording: 'Keep spam rates reported in Postmaster Tools below 0.3%.',
  },
  {
    provider: 'gmail',
    requirement: 'message-format',
    title: 'RFC 5322 format',
    wording: 'Format messages according to the Internet Message Format standard, RFC 5322.',
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
    wording:
      "For direct email, the domain in the sender's From: header must be aligned with either the SPF domain or the DKIM domain. This is required to pass DMARC alignment.",
  },
  {
    provider: 'gmail-bulk',
    requirement: 'one-click-unsubscribe',
    title: 'One-click unsubscribe',
    wording:
      'Marketing messages and subscribed messages must support one-click unsubscribe, and include a clearly visible unsubscribe link in the message body.',
  },
  {
    provider: 'yahoo',
    requirement: 'spf-and-dkim',
    title: 'SPF and DKIM',
    wording: 'Authenticate your mail: Implement both SPF & DKIM',
  },
  {
    provider: 'yahoo',
    requirement: 'dmarc-published',
    title: 'DMARC published',
    wording: 'Publish a valid DMARC policy with at least p=none - DMARC must pass',
  },
  {
    provider: 'yahoo',
    requirement: 'dmarc-aligned',
    title: 'From: aligned with SPF or DKIM',
    wording:
      'Ensure the domain in the From: header is aligned with either the SPF domain or the DKIM domain. This is required for DMARC alignment.',
  },
  {
    provider: 'yahoo',
    requirement: 'one-click-unsubscribe',
    title: 'One-click unsubscribe',
    wording:
      'Implement a functioning list-unsubscribe header, which supports one-click unsubscribe for marketing and subscribed messages. The Post (RFC 8058) method is highly recommended. The mail-to: method is acceptable. Have a clearly visible unsubscribe link in the email body',
  },
  {
    provider: 'yahoo',
    requirement: 'spam-rate',
    title: 'Spam complaint rate below 0.3 %',
    wording:
      'Keep your spam rate below 0.3%. Spam rate is calculated in our system based on mail delivered to the inbox',
  },
  {
    provider: 'yahoo',
    requirement: 'reverse-dns',
    title: 'Forward-confirmed reverse DNS',
    wording: 'Have a valid forward and reverse DNS record for your sending IPs',
  },
  {
    provider: 'yahoo',
    requirement: 'message-format',
    title: 'RFC 5322 format',
    wording: 'Comply with RFCs 5321 and 5322',
  },
  {
    provider: 'microsoft',
    requirement: 'spf-and-dkim',
    title: 'SPF and DKIM pass',
    wording: 'SPF: Must Pass for the sending domain. DKIM: Must Pass to validate email integrity and authenticity.',
  },
  {
    provider: 'microsoft',
    requirement: 'dmarc-published',
    title: 'DMARC published',
    wording: 'DMARC: At least p=none and align with either SPF or DKIM (preferably both).',
  },
  {
    provider: 'microsoft',
    requirement: 'dmarc-aligned',
    title: 'From: aligned with SPF or DKIM',
    wording: 'DMARC: At least p=none and align with either SPF or DKIM (preferably both).',
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
