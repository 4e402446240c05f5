import { describe, expect, it } from 'vitest';
import { parsePowerMtaCsv } from './powermta';
import { gmailDelivery, policyDeferral, unknownRecipientBounce } from './parser.test-support';

const NOW = Date.UTC(2024, 0, 20, 12, 0, 0);

// A PowerMTA accounting file with d, b, t, r and f records in one file (records d,b,t,r,f): the
// header names every column of every record type, and each record leaves the others' columns empty.
const HEADER =
  'type,timeLogged,timeQueued,orig,rcpt,orcpt,dsnAction,dsnStatus,dsnDiag,dsnMta,bounceCat,srcType,srcMta,dlvType,dlvSourceIp,dlvDestinationIp,dlvEsmtpAvailable,dlvSize,vmta,jobId,envId,queue,vmtaPool,totalSecondsQueued,header_Message-Id,feedbackType,format';
const ACCOUNTING = [
  HEADER,
  'd,2024-01-15 10:23:45+0000,2024-01-15 10:23:44+0000,news@mail.example.com,ann@gmail.com,,relayed,2.0.0 (success),smtp;250 2.0.0 OK  1705314225 d2e1a72fcca58-7d5f5b2c1b0si1234567pfb.12 - gsmtp,gmail-smtp-in.l.google.com (142.250.102.27),,smtp,mail.example.com (203.0.113.5),smtp,203.0.113.10,142.250.102.27,"PIPELINING,8BITMIME,SIZE,STARTTLS,ENHANCEDSTATUSCODES",4211,vmta-1,spring-sale,,gmail.com/vmta-1,pool-a,1,<20240115102344.1@mail.example.com>,,',
  'b,2024-01-15 10:23:46+0000,2024-01-15 10:23:44+0000,news@mail.example.com,bob@example.org,,failed,5.1.1 (bad destination mailbox address),"smtp;550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown in virtual mailbox table",mx.example.org (192.0.2.25),bad-mailbox,smtp,mail.example.com (203.0.113.5),smtp,203.0.113.10,192.0.2.25,"PIPELINING,SIZE",4211,vmta-1,spring-sale,,example.org/vmta-1,pool-a,2,<20240115102344.1@mail.example.com>,,',
  't,2024-01-15 10:23:47+0000,2024-01-15 10:23:44+0000,news@mail.example.com,carol@yahoo.com,,delayed,4.7.0 (other or undefined security status),"smtp;421 4.7.0 [TSS04] Messages from 203.0.113.11 temporarily deferred due to unexpected volume or user complaints - 4.16.55.1; see https://postmaster.yahooinc.com/error-codes",mta7.am0.yahoodns.net (67.195.204.72),policy-related,smtp,mail.example.com (203.0.113.5),smtp,203.0.113.11,67.195.204.72,,4211,vmta-2,spring-sale,,yahoo.com/vmta-2,pool-a,3,<20240115102344.1@mail.example.com>,,',
  'r,2024-01-15 10:23:44+0000,,news@mail.example.com,dan@example.com,,,,,,,smtp,mail.example.com (203.0.113.5),,,,,4211,vmta-1,spring-sale,,,,,<20240115102344.2@mail.example.com>,,',
  'f,2024-01-16 08:00:00+0000,,news@mail.example.com,ann@gmail.com,,,,,,,,,,,,,,,spring-sale,,,,,<20240115102344.1@mail.example.com>,abuse,arf',
  '',
  'b,1705314300,1705314000,news@mail.example.com,eve@example.net,,failed,4.4.7 (delivery time expired),"smtp;451 4.4.1 No answer from host",mx.example.net (198.51.100.7),message-expired,smtp,,smtp,203.0.113.10,,,100,vmta-1,,env-77,,,,,,',
  'x,2024-01-15 10:23:46+0000,,a@b.c,d@e.f',
  'd,2024-01-15 10:23:46+0000,,,frank@example.com,,relayed,2.0.0 (success),smtp;250 ok,,,,,,,,,,,,,,,,,,',
  'd,yesterday,2024-01-15 10:23:44+0000,news@mail.example.com,gina@example.com,,relayed,2.0.0,smtp;250 ok,,,,,,,,,,,,,,,,<m3@mail.example.com>,,',
  'd,2024-01-15 10:23:46+0000,,news@mail.example.com,"unterminated@example.com,,relayed',
].join('\r\n');

describe('PowerMTA accounting CSV', () => {
  const rows = parsePowerMtaCsv(ACCOUNTING, NOW);

  it('reads d, b and t records by the header’s columns, with the source IP, the DSN status and the diagnostic', () => {
    expect(rows).toHaveLength(10);
    expect(rows[0]).toEqual(
      gmailDelivery({
        messageId: '20240115102344.1@mail.example.com',
        sendingIp: '203.0.113.10',
        occurredAt: new Date('2024-01-15T10:23:45Z'),
        deliveryTimeMs: 1000,
      }),
    );
    expect(rows[1]).toMatchObject(unknownRecipientBounce({ category: 'bad-mailbox', sendingIp: '203.0.113.10' }));
    expect(rows[2]).toMatchObject(policyDeferral({ sendingIp: '203.0.113.11', recipient: 'carol@yahoo.com' }));
  });

  it('ignores receipts, counts feedback loop records as complaints, and an expired message as a soft bounce', () => {
    expect(rows[3]).toEqual({ ignored: 'Record type r is not a delivery outcome' });
    expect(rows[4]).toMatchObject({
      event: { eventType: 'complaint', recipient: 'ann@gmail.com', occurredAt: new Date('2024-01-16T08:00:00Z') },
    });
    // Unix times, the envelope id as the message id when there is no Message-ID column value.
    expect(rows[5]).toMatchObject({
      event: {
        eventType: 'bounced',
        bounceClass: 'soft',
        enhancedStatus: '4.4.7',
        messageId: 'env-77',
        category: 'message-expired',
      },
    });
  });

  it('answers each unreadable record by its place after the header', () => {
    expect(rows[6]).toEqual({ ignored: 'Record type x is not a delivery outcome' });
    expect(rows[7]).toMatchObject({
      event: { recipient: 'frank@example.com', messageId: expect.stringMatching(/^row:/) },
    });
    expect(rows[8]).toEqual({ error: 'Time cannot be read: yesterday' });
    expect(rows[9]).toEqual({ error: 'A quoted field is not closed' });
  });

  // The User Guide's own example, verbatim (PowerMTA User's Guide, accounting file chapter, 11.2.9 "Encoding"): a
  // file configured `records d, b`, `record-fields delivery timeLogged,orig,rcpt,dlvSourceIp` and
  // `record-fields bounce timeLogged,orig,rcpt,bounceCat`. No message id column: each row is known by its fields.
  const GUIDE_EXAMPLE = `type,timeLogged,orig,rcpt,dlvSourceIp,bounceCat
d,1178807903,orig@port25.com,user1@domain.com,10.0.0.1,
d,1178807905,orig@port25.com,user2@domain.com,10.0.0.1,
b,1178807915,orig@port25.com,user3@domain.com,,policy-related
b,1178807915,orig@port25.com,user4@domain.com,,policy-related
`;

  it('reads the User Guide’s example header, knowing each row by a hash of its fields', () => {
    const guide = parsePowerMtaCsv(GUIDE_EXAMPLE, NOW);
    expect(guide).toHaveLength(4);
    expect(guide[0]).toMatchObject({
      event: {
        eventType: 'delivered',
        recipient: 'user1@domain.com',
        domain: 'port25.com',
        sendingIp: '10.0.0.1',
        occurredAt: new Date(1178807903 * 1000),
      },
    });
    expect(guide[3]).toMatchObject({
      event: { eventType: 'bounced', bounceClass: 'hard', recipient: 'user4@domain.com', category: 'policy-related' },
    });
    const ids = guide.map((row) => ('event' in row ? row.event.messageId : ''));
    expect(new Set(ids).size).toBe(4);
    expect(parsePowerMtaCsv(GUIDE_EXAMPLE, NOW)).toEqual(guide);
  });

  it('needs the header line first', () => {
    expect(() => parsePowerMtaCsv(ACCOUNTING.split('\r\n').slice(1).join('\n'), NOW)).toThrow(/header/);
  });
});
