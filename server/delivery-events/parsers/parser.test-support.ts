import type { DeliveryEvent, RowOutcome } from '../delivery-event';

/**
 * The outcome every MTA's sample reads from its first delivery: news@mail.example.com's message accepted by
 * Gmail for ann@gmail.com with Gmail's own 250 answer. Each log format says the rest its own way (which id,
 * whether it names the source IP, how it times the attempt), so those are the caller's.
 */
export function gmailDelivery(
  fields: Pick<DeliveryEvent, 'messageId' | 'sendingIp' | 'occurredAt' | 'deliveryTimeMs'>,
): RowOutcome {
  return {
    event: {
      recipient: 'ann@gmail.com',
      eventType: 'delivered',
      bounceClass: null,
      enhancedStatus: '2.0.0',
      smtpResponse: '250 2.0.0 OK 1705314225 d2e1a72fcca58-7d5f5b2c1b0si1234567pfb.12 - gsmtp',
      domain: 'mail.example.com',
      recipientDomain: 'gmail.com',
      category: null,
      ...fields,
    },
  };
}

/**
 * Every sample's hard bounce: the receiver does not know the recipient (5.1.1). `fields` are what the
 * format also tells (the recipient, the source IP, its own category).
 */
export function unknownRecipientBounce(fields: Partial<DeliveryEvent> = {}): { event: Partial<DeliveryEvent> } {
  return { event: { eventType: 'bounced', bounceClass: 'hard', enhancedStatus: '5.1.1', ...fields } };
}

/** Every sample's deferral: the receiver turns the message away for now on its policy (4.7.0). */
export function policyDeferral(fields: Partial<DeliveryEvent> = {}): { event: Partial<DeliveryEvent> } {
  return { event: { eventType: 'deferred', enhancedStatus: '4.7.0', ...fields } };
}
