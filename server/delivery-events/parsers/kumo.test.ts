import { describe, expect, it } from 'vitest';
import { parseKumoRecords } from './kumo';
import { jsonRecords } from './json-records';
import { gmailDelivery, policyDeferral, unknownRecipientBounce } from './parser.test-support';

const NOW = Date.UTC(2024, 0, 20, 12, 0, 0);

// KumoMTA log records as a log hook posts them, one JSON object per line (the shape of
// https://docs.kumomta.com/reference/log_record/).
const base = {
  sender: 'news@mail.example.com',
  queue: 'campaign:tenant@gmail.com',
  size: 4211,
  created: 1705314224,
  num_attempts: 0,
  egress_pool: 'pool0',
  egress_source: 'source2',
  feedback_report: null,
  meta: {},
  headers: {},
  delivery_protocol: 'ESMTP',
  reception_protocol: 'HTTP',
  nodeid: '557f3ad4-2c8c-11ee-976e-782d7e12e173',
};
const records = [
  {
    ...base,
    type: 'Delivery',
    id: '1d98076abbbc11ed940250ebf67f93bd',
    recipient: 'ann@gmail.com',
    site: 'source2->(alt1|alt2|alt3|alt4)?.gmail-smtp-in.l.google.com.',
    response: {
      code: 250,
      enhanced_code: { class: 2, subject: 0, detail: 0 },
      content: 'OK 1705314225 d2e1a72fcca58-7d5f5b2c1b0si1234567pfb.12 - gsmtp',
      command: '.',
    },
    peer_address: { name: 'gmail-smtp-in.l.google.com.', addr: '142.250.102.27' },
    source_address: { address: '203.0.113.10:53210' },
    timestamp: 1705314225,
    bounce_classification: 'Uncategorized',
  },
  {
    ...base,
    type: 'Bounce',
    id: '2e98076abbbc11ed940250ebf67f93bd',
    recipient: 'bob@example.org',
    response: {
      code: 550,
      enhanced_code: { class: 5, subject: 1, detail: 1 },
      content: '<bob@example.org>: Recipient address rejected: User unknown',
      command: 'RCPT TO',
    },
    source_address: { address: '[2001:db8::10]:40112' },
    timestamp: 1705314226,
    bounce_classification: 'InvalidRecipient',
  },
  {
    ...base,
    type: 'TransientFailure',
    id: '3f98076abbbc11ed940250ebf67f93bd',
    recipient: ['carol@yahoo.com'],
    response: {
      code: 421,
      enhanced_code: { class: 4, subject: 7, detail: 0 },
      content: '[TSS04] Messages from 203.0.113.10 temporarily deferred due to unexpected volume or user complaints',
      command: 'MAIL FROM',
    },
    timestamp: 1705314227,
    bounce_classification: 'Uncategorized',
  },
  {
    ...base,
    type: 'Reception',
    id: '4a98076abbbc11ed940250ebf67f93bd',
    recipient: 'dan@example.com',
    response: { code: 250, enhanced_code: null, content: '', command: null },
    timestamp: 1705314224,
  },
  {
    ...base,
    type: 'Feedback',
    id: '5b98076abbbc11ed940250ebf67f93bd',
    recipient: 'fbl@mail.example.com',
    timestamp: 1705400000,
    response: { code: 250, enhanced_code: null, content: '', command: null },
    feedback_report: {
      feedback_type: 'abuse',
      user_agent: 'Yahoo!-Mail-Feedback/2.0',
      version: 1,
      arrival_date: '2024-01-16T10:00:00Z',
      original_mail_from: '<news@mail.example.com>',
      original_rcpto_to: ['<ann@yahoo.com>'],
      reported_domain: ['mail.example.com'],
      supplemental_trace: { recipient: 'ann@yahoo.com', id: '6c98076abbbc11ed940250ebf67f93bd' },
    },
  },
  {
    ...base,
    type: 'Expiration',
    id: '7d98076abbbc11ed940250ebf67f93bd',
    recipient: 'dave@example.net',
    response: {
      code: 451,
      enhanced_code: { class: 4, subject: 4, detail: 1 },
      content: 'connection timed out',
      command: null,
    },
    timestamp: 1705400001,
  },
];

describe('KumoMTA log records', () => {
  const ndjson = `${records.map((r) => JSON.stringify(r)).join('\n')}\n{"type":"Delivery",broken\n{"type":"Lunch","id":"x"}\n{"type":"Delivery","id":"y","recipient":"z@example.com","timestamp":"soon"}\n`;
  const rows = parseKumoRecords(jsonRecords(ndjson), NOW);

  it('reads Delivery, Bounce and TransientFailure with the enhanced code, the answer and the source address', () => {
    expect(rows).toHaveLength(9);
    expect(rows[0]).toEqual(
      gmailDelivery({
        messageId: '1d98076abbbc11ed940250ebf67f93bd',
        sendingIp: '203.0.113.10',
        occurredAt: new Date(1705314225 * 1000),
        deliveryTimeMs: 1000,
      }),
    );
    expect(rows[1]).toMatchObject(unknownRecipientBounce({ sendingIp: '2001:db8::10', category: 'InvalidRecipient' }));
    expect(rows[2]).toMatchObject(policyDeferral({ recipient: 'carol@yahoo.com', sendingIp: '' }));
  });

  it('ignores receptions; a feedback report is a complaint about the recipient it names; an expiration a soft bounce', () => {
    expect(rows[3]).toEqual({ ignored: 'Reception is not a delivery outcome' });
    expect(rows[4]).toMatchObject({
      event: {
        eventType: 'complaint',
        recipient: 'ann@yahoo.com',
        messageId: '6c98076abbbc11ed940250ebf67f93bd',
        domain: 'mail.example.com',
      },
    });
    expect(rows[5]).toMatchObject({ event: { eventType: 'bounced', bounceClass: 'soft', enhancedStatus: '4.4.1' } });
  });

  it('answers a broken line and an unreadable time by their place, and ignores a type it does not know', () => {
    expect(rows[6]).toEqual({ error: 'Not valid JSON' });
    expect(rows[7]).toEqual({ ignored: 'Lunch is not a delivery outcome' });
    expect(rows[8]).toEqual({ error: 'Time cannot be read: soon' });
  });

  // batch_handling="BatchByDomain" makes `recipient` the list of the batch's recipients (KumoCorp/kumomta,
  // docs/changelog/main.md, "Breaking Changes"); the rest of the record is as docs/reference/log_record.md shows it.
  const batched = {
    ...base,
    type: 'Delivery',
    id: '1d98076abbbc11ed940250ebf67f93bd',
    sender: 'user@sender.example.com',
    recipient: ['user@recipient.example.com', 'other.user@recipient.example.com'],
    site: 'source2->(alt1|alt2|alt3|alt4)?.gmail-smtp-in.l.google.com.',
    response: {
      code: 250,
      enhanced_code: { class: 2, subject: 0, detail: 0 },
      content: 'OK ids=8a5475ccbbc611eda12250ebf67f93bd',
      command: '.',
    },
    peer_address: { name: 'gmail-smtp-in.l.google.com.', addr: '142.251.2.27' },
    timestamp: 1678069691,
    created: 1678069691,
  };

  it('counts each recipient of a record that names a list of them', () => {
    const [row] = parseKumoRecords(jsonRecords([batched]), NOW);
    expect(row).toMatchObject({
      events: [
        { recipient: 'user@recipient.example.com', eventType: 'delivered', messageId: batched.id },
        { recipient: 'other.user@recipient.example.com', eventType: 'delivered', messageId: batched.id },
      ],
    });
    const [bad] = parseKumoRecords(jsonRecords([{ ...batched, recipient: ['a@example.com', 'not an address'] }]), NOW);
    expect(bad).toEqual({ error: 'Recipient 2: Recipient is not an e-mail address: not an address' });
  });

  it('takes a JSON array or a single record the same way', () => {
    expect(parseKumoRecords(jsonRecords(records), NOW)).toEqual(rows.slice(0, 6));
    expect(parseKumoRecords(jsonRecords(records[0]), NOW)).toEqual([rows[0]]);
  });
});
