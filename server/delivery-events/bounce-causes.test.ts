import { describe, expect, it } from 'vitest';
import { bounceCause, ipsNamedIn } from './bounce-causes';

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
  ['4.7.0', '421 4.7.0 [TSS04] Messages from 203.0.113.10 temporarily deferred due to unexpected volume or user complaints - 4.16.55.1', 'rate_limited'],
  ['4.7.28', '421-4.7.28 Gmail has detected an unusual rate of mail originating from your SPF domain', 'rate_limited'],
  ['4.2.2', '452 4.2.2 The email account that you tried to reach is over quota.', 'mailbox_full'],
  ['5.2.2', '552 5.2.2 Mailbox full', 'mailbox_full'],
  ['5.1.1', "550-5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address", 'unknown_user'],
  [null, 'host mx.example.org[192.0.2.25] said: 550 <bob@example.org>: Recipient address rejected: User unknown in virtual mailbox table', 'unknown_user'],
  [
    '5.7.26',
    '550-5.7.26 This mail has been blocked because the sender is unauthenticated. Gmail requires all senders to authenticate with either SPF or DKIM.',
    'policy',
  ],
  ['5.7.509', '550 5.7.509 Access denied, sending domain example.com does not pass DMARC verification and has a DMARC policy of reject.', 'policy'],
  ['5.7.1', '550-5.7.1 Our system has detected that this message is likely unsolicited mail.', 'policy'],
  ['4.4.1', 'connect to mx.example.net[198.51.100.7]:25: Connection timed out', 'other'],
  [null, null as unknown as string, 'other'],
];

describe('bounce causes in plain words', () => {
  it.each(cases)('%s %s -> %s', (enhancedStatus, smtpResponse, cause) => {
    expect(bounceCause({ enhancedStatus, smtpResponse })).toBe(cause);
  });

  it('falls back on the MTA’s own category when the answer says nothing', () => {
    expect(bounceCause({ enhancedStatus: null, smtpResponse: 'rejected', category: 'quota-issues' })).toBe('mailbox_full');
    expect(bounceCause({ enhancedStatus: null, smtpResponse: 'rejected', category: 'InvalidRecipient' })).toBe('unknown_user');
    expect(bounceCause({ enhancedStatus: null, smtpResponse: 'rejected', category: 'spam-related' })).toBe('blocklist');
  });

  it('names the blocked addresses, not the receiving server Postfix names before the answer', () => {
    expect(ipsNamedIn(cases[0][1])).toEqual(['203.0.113.10']);
    expect(ipsNamedIn('550 5.7.1 messages from [198.51.100.9] blocked')).toEqual(['198.51.100.9']);
    expect(ipsNamedIn('connect to mx.example.net[198.51.100.7]:25: Connection refused')).toEqual([]);
    expect(ipsNamedIn(null)).toEqual([]);
  });
});
