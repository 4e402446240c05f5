import { describe, expect, it } from 'vitest';
import { parsePostfixLines } from './postfix';
import { splitLines } from './json-records';
import { gmailDelivery, policyDeferral, unknownRecipientBounce } from './parser.test-support';

const NOW = Date.UTC(2024, 0, 20, 12, 0, 0);

// A Postfix 3.7 mail log as syslog writes it: one message to three recipients (delivered to Gmail,
// bounced by the receiver, deferred by Yahoo), a connection timeout, a local delivery, an LMTP
// delivery in rsyslog's RFC 3339 format, and lines of other programs.
const MAILLOG = `Jan 15 10:23:44 mx1 postfix/pickup[2101]: 4TfK2Q1xYzz9: uid=1001 from=<news@mail.example.com>
Jan 15 10:23:44 mx1 postfix/cleanup[2110]: 4TfK2Q1xYzz9: message-id=<20240115102344.4TfK2Q1xYzz9@mail.example.com>
Jan 15 10:23:44 mx1 postfix/qmgr[1999]: 4TfK2Q1xYzz9: from=<news@mail.example.com>, size=4211, nrcpt=3 (queue active)
Jan 15 10:23:45 mx1 postfix/smtp[2120]: 4TfK2Q1xYzz9: to=<Ann@Gmail.com>, relay=gmail-smtp-in.l.google.com[142.250.102.27]:25, delay=1.2, delays=0.1/0.01/0.5/0.59, dsn=2.0.0, status=sent (250 2.0.0 OK  1705314225 d2e1a72fcca58-7d5f5b2c1b0si1234567pfb.12 - gsmtp)
Jan 15 10:23:46 mx1 postfix/smtp[2121]: 4TfK2Q1xYzz9: to=<bob@example.org>, relay=mx.example.org[192.0.2.25]:25, delay=2.1, delays=0.1/0.01/1.5/0.49, dsn=5.1.1, status=bounced (host mx.example.org[192.0.2.25] said: 550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown in virtual mailbox table (in reply to RCPT TO command))
Jan 15 10:23:47 mx1 postfix/smtp[2122]: 4TfK2Q1xYzz9: to=<carol@yahoo.com>, relay=mta7.am0.yahoodns.net[67.195.204.72]:25, delay=3.3, delays=0.1/0.01/3.1/0.09, dsn=4.7.0, status=deferred (host mta7.am0.yahoodns.net[67.195.204.72] said: 421 4.7.0 [TSS04] Messages from 203.0.113.10 temporarily deferred due to unexpected volume or user complaints - 4.16.55.1; see https://postmaster.yahooinc.com/error-codes (in reply to MAIL FROM command))
Jan 15 10:23:47 mx1 postfix/bounce[2130]: 4TfK2Q1xYzz9: sender non-delivery notification: 4TfK2R0abcd1
Jan 15 10:30:02 mx1 postfix/smtp[2140]: 4TfK3B2mNpq7: to=<dave@example.net>, relay=none, delay=30, delays=0.02/0/30/0, dsn=4.4.1, status=deferred (connect to mx.example.net[198.51.100.7]:25: Connection timed out)
Jan 15 10:31:00 mx1 postfix/local[2150]: 4TfK3C9kLm2w: to=<root@mx1.example.com>, orig_to=<root>, relay=local, delay=0.01, delays=0/0/0/0.01, dsn=2.0.0, status=sent (delivered to mailbox)
2024-01-15T10:32:00.123456+01:00 mx1 postfix/lmtp[2160]: 4TfK3D5qRsT8: to=<erin@example.com>, relay=mail.example.com[private/dovecot-lmtp], delay=0.05, delays=0.01/0/0.01/0.03, dsn=2.0.0, status=sent (250 2.0.0 <erin@example.com> 8Hk2ABCDEF Saved)
Jan 15 10:33:00 mx1 sshd[3000]: Accepted publickey for deploy from 198.51.100.9 port 50122 ssh2
this is not a log line
Jan 15 10:34:00 mx1 postfix/smtp[2170]: 4TfK4E1aBcD2: to=<not an address>, relay=none, delay=1, delays=0/0/1/0, dsn=5.1.3, status=bounced (bad address syntax)
`;

describe('Postfix log lines', () => {
  const lines = splitLines(MAILLOG);
  const rows = parsePostfixLines(lines, NOW);

  it('reads each smtp/lmtp status line as an event with the queue id, the dsn code and the answer', () => {
    expect(rows).toHaveLength(13);
    expect(rows[3]).toEqual(
      gmailDelivery({
        messageId: '4TfK2Q1xYzz9',
        sendingIp: '',
        occurredAt: new Date('2024-01-15T10:23:45Z'),
        deliveryTimeMs: 1200,
      }),
    );
    expect(rows[4]).toMatchObject(
      unknownRecipientBounce({
        recipient: 'bob@example.org',
        smtpResponse:
          'host mx.example.org[192.0.2.25] said: 550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown in virtual mailbox table (in reply to RCPT TO command)',
      }),
    );
    expect(rows[5]).toMatchObject(policyDeferral({ bounceClass: null, recipient: 'carol@yahoo.com' }));
    // No answer at all (a timeout): the dsn field still says what it was.
    expect(rows[7]).toMatchObject({
      event: {
        eventType: 'deferred',
        enhancedStatus: '4.4.1',
        smtpResponse: 'connect to mx.example.net[198.51.100.7]:25: Connection timed out',
      },
    });
    // RFC 3339 time with its zone.
    expect(rows[9]).toMatchObject({
      event: {
        eventType: 'delivered',
        recipient: 'erin@example.com',
        occurredAt: new Date('2024-01-15T09:32:00.123Z'),
      },
    });
  });

  it('ignores the other lines of the log and names the unreadable ones', () => {
    expect(rows[0]).toEqual({ ignored: 'Not a delivery line' });
    expect(rows[1]).toEqual({ ignored: 'Not a delivery line' });
    expect(rows[6]).toEqual({ ignored: 'Not a delivery line' });
    expect(rows[8]).toEqual({ ignored: 'Local delivery (local), not sending' });
    expect(rows[10]).toEqual({ ignored: 'Not a Postfix line' });
    expect(rows[11]).toEqual({ error: 'Not a syslog line of a mail log' });
    expect(rows[12]).toEqual({ error: 'Recipient is not an e-mail address: not an address' });
  });

  it('reads a bounce to any address RFC 5322 allows, and names a local part it does not', () => {
    // Local parts of RFC 5322 atext ($, {, }, ', +) as Postfix logs them: unquoted, since they need no quotes.
    const [bounce, dotted] = parsePostfixLines(
      [
        "Jan 15 10:40:00 mx1 postfix/smtp[2180]: 4TfK5F2bCdE3: to=<o'neil${ops}+{2024}@example.org>, relay=mx.example.org[192.0.2.25]:25, delay=0.9, delays=0.1/0.01/0.5/0.29, dsn=5.1.1, status=bounced (host mx.example.org[192.0.2.25] said: 550 5.1.1 <o'neil${ops}+{2024}@example.org>: Recipient address rejected: User unknown in virtual mailbox table (in reply to RCPT TO command))",
        'Jan 15 10:40:01 mx1 postfix/smtp[2180]: 4TfK5F2bCdE3: to=<ann..lee@example.org>, relay=none, delay=0.1, delays=0/0/0.1/0, dsn=5.1.3, status=bounced (bad address syntax)',
      ],
      NOW,
    );
    expect(bounce).toMatchObject(unknownRecipientBounce({ recipient: "o'neil${ops}+{2024}@example.org" }));
    expect(dotted).toEqual({ error: 'Recipient is not an e-mail address: ann..lee@example.org' });
  });

  it('puts a December line read in January in the year before', () => {
    const [row] = parsePostfixLines(
      [
        'Dec 31 23:59:58 mx1 postfix/smtp[1]: 4TfK2Q1xYzz9: to=<a@example.com>, relay=x[192.0.2.1]:25, delay=1, delays=0/0/0/1, dsn=2.0.0, status=sent (250 ok)',
      ],
      Date.UTC(2024, 0, 1, 0, 5),
    );
    expect(row).toMatchObject({ event: { occurredAt: new Date('2023-12-31T23:59:58Z') } });
  });

  it('refuses an overlong line unread, and hostile lines cost no more than plain ones', () => {
    const long = `Jan 15 10:23:45 mx1 postfix/smtp[2120]: 4TfK2Q1xYzz9: to=<a@example.com>, ${'x'.repeat(9000)}`;
    expect(parsePostfixLines([long], NOW)[0]).toEqual({ error: 'Line longer than 8192 characters' });
    const nasty = [
      `Jan 15 10:23:45 mx1 postfix/smtp[2120]: 4TfK2Q1xYzz9: to=<${'a'.repeat(60)}@${'b.'.repeat(120)}c>, status=sent (${'5.5.5.'.repeat(1300)})`,
      `Jan 15 10:23:45 mx1 ${'postfix/'.repeat(12)}[1]: ${'['.repeat(8000)}`,
      `${'Jan 15 10:23:45 '.repeat(500)}`,
    ];
    const started = performance.now();
    for (let i = 0; i < 100; i++) parsePostfixLines(nasty, NOW);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
