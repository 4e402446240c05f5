import { describe, expect, it } from 'vitest';
import { BOUNCE_CAUSES } from '@contracts/delivery-events';
import { bounceCause, CAUSE_ADVICE, CAUSE_LABELS, ipsNamedIn } from './bounce-causes';

// Real answers of the large receivers, as their postmaster pages publish them.
const cases: [string | null, string, string][] = [
  [
    '5.7.1',
    'host mx.example.org[192.0.2.25] said: 554 5.7.1 Service unavailable; Client host [203.0.113.10] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/203.0.113.10',
    'blocklist',
  ],
  [
    '5.7.1',
    "550 5.7.1 Unfortunately, messages from [203.0.113.10] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150).",
    'blocklist',
  ],
  ['5.7.606', '550 5.7.606 Access denied, banned sending IP [203.0.113.10].', 'blocklist'],
  // Google's daily sending limit (Google Workspace Admin Help, "SMTP error reference",
  // support.google.com/a/answer/3726730).
  [
    '5.4.5',
    '550 5.4.5 Daily user sending limit exceeded. For more information on Gmail sending limits go to https://support.google.com/a/answer/166852',
    'rate_limited',
  ],
  ['4.2.2', '452 4.2.2 The email account that you tried to reach is over quota.', 'mailbox_full'],
  ['5.2.2', '552 5.2.2 Mailbox full', 'mailbox_full'],
  [
    '5.1.1',
    "550-5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address",
    'unknown_user',
  ],
  [
    null,
    'host mx.example.org[192.0.2.25] said: 550 <bob@example.org>: Recipient address rejected: User unknown in virtual mailbox table',
    'unknown_user',
  ],
  [
    '5.7.26',
    '550-5.7.26 This mail has been blocked because the sender is unauthenticated. Gmail requires all senders to authenticate with either SPF or DKIM.',
    'policy',
  ],
  [
    '5.7.509',
    '550 5.7.509 Access denied, sending domain example.com does not pass DMARC verification and has a DMARC policy of reject.',
    'policy',
  ],
  ['5.7.1', '550-5.7.1 Our system has detected that this message is likely unsolicited mail.', 'policy'],
  ['4.4.1', 'connect to mx.example.net[198.51.100.7]:25: Connection timed out', 'other'],
  [null, null as unknown as string, 'other'],
];

// Throttling for the sender's reputation: a deferral, not a listing, and not a plain volume limit.
const reputationThrottling: [string, string, string][] = [
  [
    'Microsoft (Exchange Online NDR reference, learn.microsoft.com/exchange/mail-flow-best-practices/non-delivery-reports-in-exchange-online)',
    '4.7.650',
    '451 4.7.650 The mail server [203.0.113.10] has been temporarily rate limited due to IP reputation. For e-mail delivery information, see https://postmaster.live.com',
  ],
  [
    'Gmail (Google Workspace Admin Help, "SMTP error reference", support.google.com/a/answer/3726730)',
    '4.7.28',
    '421-4.7.28 [203.0.113.10] Our system has detected an unusual rate of unsolicited mail originating from your IP address. To protect our users from spam, mail sent from your IP address has been temporarily rate limited. Please visit https://support.google.com/mail/?p=UnsolicitedRateLimitError to review our Bulk Email Senders Guidelines. - gsmtp',
  ],
  [
    'Gmail, by SPF domain (same reference)',
    '4.7.28',
    '421-4.7.28 Gmail has detected an unusual rate of unsolicited mail originating from your SPF domain. To protect our users from spam, mail sent from your domain has been temporarily rate limited. Please visit https://support.google.com/mail/?p=UnsolicitedRateLimitError to review our Bulk Email Senders Guidelines. - gsmtp',
  ],
  [
    'Gmail, low IP reputation (same reference)',
    '4.7.0',
    '421-4.7.0 Our system has detected that this message is suspicious due to the very low reputation of the sending IP address. To protect our users from spam, mail sent from your IP address has been temporarily rate limited. Please visit https://support.google.com/mail/answer/188131 for more information. - gsmtp',
  ],
  [
    'Yahoo (Yahoo Sender Hub, "SMTP error codes", senders.yahooinc.com/smtp-error-codes)',
    '4.7.0',
    '421 4.7.0 [TSS04] Messages from 203.0.113.10 temporarily deferred due to unexpected volume or user complaints - 4.16.55.1; see https://postmaster.yahooinc.com/error-codes',
  ],
];

describe('bounce causes in plain words', () => {
  it.each(reputationThrottling)(
    '%s: throttling for reputation is its own cause, not a blocklist',
    (_source, enhancedStatus, smtpResponse) => {
      expect(bounceCause({ enhancedStatus, smtpResponse })).toBe('reputation_throttled');
      expect(bounceCause({ enhancedStatus: null, smtpResponse })).toBe('reputation_throttled');
    },
  );

  it('gives every cause a label and a piece of advice', () => {
    for (const cause of BOUNCE_CAUSES) {
      expect(CAUSE_LABELS[cause]).toMatch(/^[A-Z]/);
      expect(CAUSE_ADVICE[cause]).toMatch(/^[A-Z].+\.$/);
    }
    expect(CAUSE_LABELS.reputation_throttled).toBe('Throttled for sender reputation');
    expect(new Set(Object.values(CAUSE_LABELS)).size).toBe(BOUNCE_CAUSES.length);
  });

  it.each(cases)('%s %s -> %s', (enhancedStatus, smtpResponse, cause) => {
    expect(bounceCause({ enhancedStatus, smtpResponse })).toBe(cause);
  });

  it('falls back on the MTA’s own category when the answer says nothing', () => {
    expect(bounceCause({ enhancedStatus: null, smtpResponse: 'rejected', category: 'quota-issues' })).toBe(
      'mailbox_full',
    );
    expect(bounceCause({ enhancedStatus: null, smtpResponse: 'rejected', category: 'InvalidRecipient' })).toBe(
      'unknown_user',
    );
    expect(bounceCause({ enhancedStatus: null, smtpResponse: 'rejected', category: 'spam-related' })).toBe('blocklist');
  });

  it('names the blocked addresses, not the receiving server Postfix names before the answer', () => {
    expect(ipsNamedIn(cases[0][1])).toEqual(['203.0.113.10']);
    expect(ipsNamedIn('550 5.7.1 messages from [198.51.100.9] blocked')).toEqual(['198.51.100.9']);
    expect(ipsNamedIn('connect to mx.example.net[198.51.100.7]:25: Connection refused')).toEqual([]);
    expect(ipsNamedIn(null)).toEqual([]);
  });
});
