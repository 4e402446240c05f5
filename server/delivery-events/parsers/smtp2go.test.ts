import { describe, expect, it } from 'vitest';
import { parseSmtp2goRecords } from './smtp2go';
import { jsonRecords } from './json-records';
import { gmailDelivery, unknownRecipientBounce } from './parser.test-support';

const NOW = Date.UTC(2024, 0, 20, 12, 0, 0);

// SMTP2GO webhook posts, as their form fields arrive (one event a request), with the parameters of
// https://developers.smtp2go.com/docs/webhooks-1 ("Standard Reported Data").
const form = (fields: string) => Object.fromEntries(new URLSearchParams(fields));

describe('SMTP2GO webhooks', () => {
  const rows = parseSmtp2goRecords(
    jsonRecords([
      form(
        'event=delivered&time=2024-01-15T10:23:45Z&sendtime=2024-01-15T10:23:44Z&sender=news%40mail.example.com&from=news%40mail.example.com&rcpt=ann%40gmail.com&recipients=ann%40gmail.com&auth=api-7F3A&email_id=1rPqRs-4TfK2Q-Ab&subject=Spring+sale&message=250+2.0.0+OK++1705314225+d2e1a72fcca58-7d5f5b2c1b0si1234567pfb.12+-+gsmtp',
      ),
      form(
        'event=bounce&time=2024-01-15T10:23:46Z&sendtime=2024-01-15T10:23:44Z&sender=news%40mail.example.com&rcpt=bob%40example.org&email_id=1rPqRs-4TfK2Q-Cd&bounce=hard&host=mx.example.org+%5B192.0.2.25%5D&message=550+5.1.1+%3Cbob%40example.org%3E%3A+Recipient+address+rejected%3A+User+unknown',
      ),
      form(
        'event=bounce&time=2024-01-15T10:23:47Z&rcpt=carol%40example.com&email_id=1rPqRs-4TfK2Q-Ef&bounce=soft&message=452+4.2.2+Mailbox+full',
      ),
      form('event=spam&time=2024-01-16T08:00:00Z&rcpt=ann%40gmail.com&email_id=1rPqRs-4TfK2Q-Ab'),
      form('event=open&time=2024-01-15T11:00:00Z&rcpt=ann%40gmail.com&email_id=1rPqRs-4TfK2Q-Ab&user-agent=Mozilla'),
      form('event=bounce&time=2024-01-15T10:23:46Z&rcpt=bob%40example.org'),
    ]),
    NOW,
  );

  it('reads delivered, bounce (SMTP2GO says hard or soft) and spam by email_id', () => {
    expect(rows[0]).toEqual(
      gmailDelivery({
        messageId: '1rPqRs-4TfK2Q-Ab',
        sendingIp: '',
        occurredAt: new Date('2024-01-15T10:23:45Z'),
        deliveryTimeMs: null,
      }),
    );
    expect(rows[1]).toMatchObject(unknownRecipientBounce());
    expect(rows[2]).toMatchObject({ event: { eventType: 'bounced', bounceClass: 'soft', enhancedStatus: '4.2.2' } });
    expect(rows[3]).toMatchObject({ event: { eventType: 'complaint', recipient: 'ann@gmail.com' } });
    expect(rows[4]).toEqual({ ignored: 'open is not a delivery outcome' });
    expect(rows[5]).toEqual({ error: 'No message id' });
  });

  it('reads a spam_complaint callback as a complaint, and answers an opened one and any unknown event as ignored', () => {
    const [complaint, opened, later] = parseSmtp2goRecords(
      jsonRecords([
        form(
          'event=spam_complaint&time=2024-01-16T08:00:00Z&sendtime=2024-01-15T10:23:44Z&sender=news%40mail.example.com&from=news%40mail.example.com&rcpt=ann%40gmail.com&recipients=ann%40gmail.com&auth=api-7F3A&email_id=1rPqRs-4TfK2Q-Ab&subject=Spring+sale',
        ),
        form(
          'event=opened&time=2024-01-15T11:00:00Z&sendtime=2024-01-15T10:23:44Z&rcpt=ann%40gmail.com&email_id=1rPqRs-4TfK2Q-Ab&user-agent=Mozilla%2F5.0&read-secs=10&client=Gmail&client-device=desktop&client-os=Windows',
        ),
        form('event=sms_delivered&time=2024-01-15T11:00:00Z'),
      ]),
      NOW,
    );
    expect(complaint).toMatchObject({
      event: {
        eventType: 'complaint',
        recipient: 'ann@gmail.com',
        messageId: '1rPqRs-4TfK2Q-Ab',
        domain: 'mail.example.com',
      },
    });
    expect(opened).toEqual({ ignored: 'opened is not a delivery outcome' });
    expect(later).toEqual({ ignored: 'sms_delivered is not a delivery outcome' });
  });
});
