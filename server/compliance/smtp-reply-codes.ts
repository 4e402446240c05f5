import type { ComplianceProvider, ComplianceRequirement } from '@contracts/compliance';
import type { ReplyEvent } from '../insights/compliance-evidence';

/*
 * SMTP replies in which a provider cites one of its sender rules (ADR 055). Gmail's codes and meanings are
 * from its SMTP error reference (https://support.google.com/a/answer/3726730) and sender guidelines FAQ;
 * Microsoft's from its high-volume sender announcement (the rule table's source); Yahoo's from its SMTP error
 * codes page (https://senders.yahooinc.com/smtp-error-codes/).
 */

interface ReplyCode {
  provider: ComplianceProvider;
  code: string;
  /** Matches the code in a reply's text, not inside a longer number. */
  pattern: RegExp;
  /** Which delivery events can carry it: the recipients' mailbox provider (from their MX). */
  mailboxProvider: string;
  requirement: ComplianceRequirement;
  meaning: string;
}

const enhanced = (code: string) => new RegExp(`(?<![\\d.])${code.replace(/\./g, '\\.')}(?![\\d])`);

const gmail = (
  provider: ComplianceProvider,
  codes: string[],
  requirement: ComplianceRequirement,
  meaning: string,
): ReplyCode[] =>
  codes.map((code) => ({ provider, code, pattern: enhanced(code), mailboxProvider: 'gmail', requirement, meaning }));

export const REPLY_CODES: ReplyCode[] = [
  ...gmail('gmail', ['5.7.26'], 'spf-or-dkim', 'The sender is unauthenticated: neither SPF nor DKIM passed.'),
  ...gmail('gmail', ['4.7.28'], 'spam-rate', 'Rate limited: an unusual rate of unsolicited mail.'),
  ...gmail('gmail', ['4.7.23', '5.7.25'], 'reverse-dns', 'The sending IP has no PTR record, or it does not match.'),
  ...gmail('gmail-bulk', ['4.7.27', '5.7.27'], 'spf-and-dkim', 'SPF did not pass.'),
  ...gmail('gmail-bulk', ['4.7.30', '5.7.30'], 'spf-and-dkim', 'DKIM did not pass.'),
  ...gmail('gmail-bulk', ['4.7.32', '5.7.32'], 'dmarc-aligned', 'The From: domain is not aligned with SPF or DKIM.'),
  ...gmail('gmail-bulk', ['4.7.40', '5.7.40'], 'dmarc-published', 'The sending domain publishes no DMARC policy.'),
  {
    provider: 'yahoo',
    code: 'TSS04',
    pattern: /\[TSS04\]/,
    mailboxProvider: 'yahoo',
    requirement: 'spam-rate',
    meaning: 'Temporarily deferred due to unexpected volume or user complaints.',
  },
  {
    provider: 'microsoft',
    code: '5.7.515',
    pattern: enhanced('5.7.515'),
    mailboxProvider: 'outlook',
    requirement: 'spf-and-dkim',
    meaning: 'The sending domain does not meet the required authentication level (SPF, DKIM and DMARC).',
  },
];

/** The rule a reply cites, or undefined. A code counts only in replies from the provider that defines it. */
export function citedRule(reply: ReplyEvent): ReplyCode | undefined {
  const text = `${reply.enhancedStatus ?? ''} ${reply.smtpResponse}`;
  return REPLY_CODES.find((c) => fromProvider(reply, c) && c.pattern.test(text));
}

/** Google signs every reply "gsmtp": a Workspace domain's MX may not look like Gmail's, its replies still do. */
function fromProvider(reply: ReplyEvent, code: ReplyCode): boolean {
  return (
    reply.mailboxProvider === code.mailboxProvider ||
    (code.mailboxProvider === 'gmail' && /\bgsmtp\b/.test(reply.smtpResponse))
  );
}
