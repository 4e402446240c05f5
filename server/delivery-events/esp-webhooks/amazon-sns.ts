import { createVerify, X509Certificate } from 'node:crypto';
import type { OutboundGuard } from '../../platform/security/outbound-address';
import { record, str } from '../delivery-event';

/*
 * Amazon SNS messages to an HTTPS subscription (https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html):
 * each is signed with RSA (SHA1 for SignatureVersion 1, SHA256 for 2) by the certificate at SigningCertURL, which
 * must be AWS's own: https on an sns.<region>.amazonaws.com host, and issued to sns.amazonaws.com.
 */

export type SnsType = 'Notification' | 'SubscriptionConfirmation' | 'UnsubscribeConfirmation';

export interface SnsMessage {
  type: SnsType;
  messageId: string;
  topicArn: string;
  message: string;
  timestamp: string;
  subject?: string;
  subscribeUrl?: string;
  token?: string;
  signatureVersion: string;
  signature: string;
  signingCertUrl: string;
}

export class SnsError extends Error {}
/** AWS could not be reached (the certificate or the subscription link): worth SNS's retry, unlike a bad signature. */
export class SnsUnreachable extends SnsError {}

const TYPES: readonly string[] = ['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation'];
/** AWS's SNS endpoints, the only hosts a signing certificate or a subscription link may come from. */
const SNS_HOST = /^sns\.[a-z0-9-]{1,30}\.amazonaws\.com(\.cn)?$/;

export function snsMessageOf(body: unknown): SnsMessage {
  const m = record(body);
  const type = str(m?.Type);
  if (!m || !type || !TYPES.includes(type)) throw new SnsError('Not an Amazon SNS message: Type is missing or unknown');
  const field = (name: string) => {
    const value = str(m[name]);
    if (!value) throw new SnsError(`Not an Amazon SNS message: ${name} is missing`);
    return value;
  };
  return {
    type: type as SnsType,
    messageId: field('MessageId'),
    topicArn: field('TopicArn'),
    message: field('Message'),
    timestamp: field('Timestamp'),
    subject: str(m.Subject),
    subscribeUrl: type === 'Notification' ? undefined : field('SubscribeURL'),
    token: type === 'Notification' ? undefined : field('Token'),
    signatureVersion: field('SignatureVersion'),
    signature: field('Signature'),
    signingCertUrl: field('SigningCertURL'),
  };
}

/** An https URL on an SNS host, or null. */
export function snsUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && SNS_HOST.test(url.hostname) ? url : null;
  } catch {
    return null;
  }
}

/** The text SNS signs: the message's fields in the documented order, each as "Name\nvalue\n". */
function stringToSign(m: SnsMessage): string {
  const fields: [string, string | undefined][] =
    m.type === 'Notification'
      ? [
          ['Message', m.message],
          ['MessageId', m.messageId],
          ['Subject', m.subject],
          ['Timestamp', m.timestamp],
          ['TopicArn', m.topicArn],
          ['Type', m.type],
        ]
      : [
          ['Message', m.message],
          ['MessageId', m.messageId],
          ['SubscribeURL', m.subscribeUrl],
          ['Timestamp', m.timestamp],
          ['Token', m.token],
          ['TopicArn', m.topicArn],
          ['Type', m.type],
        ];
  return fields
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}\n${value}\n`)
    .join('');
}

const FETCH = { timeoutMs: 5000, maxBytes: 16 * 1024 };
// Certificates by URL: AWS rotates them rarely, and each Notification would otherwise cost a fetch. Per process
// is enough (any process fetches the same file), and the map is bounded.
const certificates = new Map<string, string>();
const CERTIFICATES_KEPT = 20;

async function signingCertificate(outbound: OutboundGuard, url: URL): Promise<string> {
  const cached = certificates.get(url.href);
  if (cached) return cached;
  const answer = await outbound.fetch(url, FETCH).catch((err: unknown) => {
    throw new SnsUnreachable(`The SNS signing certificate could not be fetched: ${(err as Error).message}`);
  });
  if (answer.status !== 200 || answer.truncated)
    throw new SnsUnreachable(`The SNS signing certificate could not be fetched: HTTP ${answer.status}`);
  const pem = answer.body.toString('utf8');
  let subject: string;
  try {
    subject = new X509Certificate(pem).subject;
  } catch {
    throw new SnsError('The SNS signing certificate is not a certificate');
  }
  if (!subject.split('\n').includes('CN=sns.amazonaws.com'))
    throw new SnsError('The SNS signing certificate is not issued to sns.amazonaws.com');
  if (certificates.size >= CERTIFICATES_KEPT) certificates.clear();
  certificates.set(url.href, pem);
  return pem;
}

const ALGORITHMS: Record<string, string> = { '1': 'RSA-SHA1', '2': 'RSA-SHA256' };

/** Throws SnsError saying why unless the message is signed by AWS's SNS certificate. */
export async function verifySnsMessage(outbound: OutboundGuard, m: SnsMessage): Promise<void> {
  const algorithm = ALGORITHMS[m.signatureVersion];
  if (!algorithm)
    throw new SnsError(`Unknown SNS SignatureVersion ${m.signatureVersion.slice(0, 10)}: 1 or 2 expected`);
  const url = snsUrl(m.signingCertUrl);
  if (!url) throw new SnsError('SigningCertURL is not an https URL on an sns.<region>.amazonaws.com host');
  const pem = await signingCertificate(outbound, url);
  const valid = createVerify(algorithm).update(stringToSign(m), 'utf8').verify(pem, m.signature, 'base64');
  if (!valid) throw new SnsError('Invalid Amazon SNS signature: the message was not signed by AWS or was altered');
}

/** Confirms the subscription by visiting its SubscribeURL, as SNS asks; throws SnsError when SNS does not accept. */
export async function confirmSubscription(outbound: OutboundGuard, m: SnsMessage): Promise<void> {
  const url = snsUrl(m.subscribeUrl ?? '');
  if (!url) throw new SnsError('SubscribeURL is not an https URL on an sns.<region>.amazonaws.com host');
  const answer = await outbound.fetch(url, FETCH).catch((err: unknown) => {
    throw new SnsUnreachable(`The subscription could not be confirmed: ${(err as Error).message}`);
  });
  if (answer.status !== 200)
    throw new SnsUnreachable(`The subscription could not be confirmed: SNS answered HTTP ${answer.status}`);
}
