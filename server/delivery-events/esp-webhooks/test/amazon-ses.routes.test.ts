import { createSign, randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryEvents } from '../../../platform/db/schema/index';
import { startDnsServer, type TestDnsServer } from '../../../test/dns-server';
import { hasOpenssl, makeSelfSignedCert } from '../../../test/self-signed-cert';
import { createTestApp, signUp, type TestApp } from '../../../test/test-app';
import { SES_BOUNCE, SES_COMPLAINT, SES_DELIVERY } from './vendor-payloads';

/*
 * Amazon SES through SNS, end to end: AWS's SNS endpoint is a loopback HTTPS server named
 * sns.us-west-2.amazonaws.com in the test DNS (its TLS certificate trusted through OUTBOUND_CA_FILE), serving the
 * signing certificate (issued to sns.amazonaws.com, as AWS's are) and the subscription link. Messages are signed as
 * SNS documents it (https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html).
 */

const SNS_HOST = 'sns.us-west-2.amazonaws.com';
const TOPIC = 'arn:aws:sns:us-west-2:123456789012:MyTopic';

describe.skipIf(!hasOpenssl)('Amazon SES through SNS (needs openssl for the test certificates)', () => {
  let dns: TestDnsServer;
  let t: TestApp;
  let sns: Server;
  let port = 0;
  const tls = hasOpenssl ? makeSelfSignedCert(SNS_HOST) : undefined;
  const signing = hasOpenssl ? makeSelfSignedCert('sns.amazonaws.com') : undefined;
  const confirmations: string[] = [];

  beforeAll(async () => {
    sns = createServer({ key: readFileSync(tls!.key), cert: readFileSync(tls!.cert) }, (req, res) => {
      if (req.url === '/SimpleNotificationService-test.pem') {
        res.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(readFileSync(signing!.cert));
      } else if (req.url?.startsWith('/?Action=ConfirmSubscription')) {
        confirmations.push(req.url);
        res.writeHead(200, { 'content-type': 'text/xml' }).end('<ConfirmSubscriptionResponse/>');
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => sns.listen(0, '127.0.0.1', resolve));
    port = (sns.address() as AddressInfo).port;
    dns = await startDnsServer({
      [SNS_HOST]: { A: ['127.0.0.1'] },
      'example.com': { MX: [{ exchange: 'mx.example.com', priority: 10 }] },
    });
    t = await createTestApp({
      env: { DNS_SERVERS: dns.address, OUTBOUND_ALLOW_ADDRESSES: '127.0.0.1', OUTBOUND_CA_FILE: tls!.cert },
    });
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
    sns?.closeAllConnections();
    sns?.close();
    for (const made of [tls, signing]) if (made) rmSync(made.dir, { recursive: true, force: true });
  });

  const certUrl = () => `https://${SNS_HOST}:${port}/SimpleNotificationService-test.pem`;

  /** An SNS message with the fields of SNS's HTTP/HTTPS JSON formats, signed as SNS signs it. */
  function snsMessage(fields: Record<string, string>, version: '1' | '2' = '1', signingKeyOf = signing!.key) {
    const message: Record<string, string> = {
      MessageId: randomUUID(),
      TopicArn: TOPIC,
      Timestamp: new Date().toISOString(),
      SignatureVersion: version,
      SigningCertURL: certUrl(),
      ...fields,
    };
    const signed =
      message.Type === 'Notification'
        ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
        : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
    const text = signed
      .filter((name) => message[name] !== undefined)
      .map((name) => `${name}\n${message[name]}\n`)
      .join('');
    message.Signature = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
      .update(text)
      .sign(readFileSync(signingKeyOf), 'base64');
    return JSON.stringify(message);
  }

  async function account() {
    const { client, user } = await signUp(t.app);
    const token = (await client.post('/api/webhook-tokens/generate')).json().token as string;
    return { userId: user.id, token };
  }
  // SNS posts text/plain.
  const post = (token: string, body: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/esp-webhooks/ses?token=${token}`,
      payload: body,
      headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': 'Notification' },
    });
  const stored = (userId: number) =>
    t.database.db
      .select({
        messageId: deliveryEvents.messageId,
        recipient: deliveryEvents.recipient,
        eventType: deliveryEvents.eventType,
        bounceClass: deliveryEvents.bounceClass,
        enhancedStatus: deliveryEvents.enhancedStatus,
        domain: deliveryEvents.domain,
      })
      .from(deliveryEvents)
      .where(eq(deliveryEvents.userId, userId))
      .orderBy(deliveryEvents.eventType);

  it('confirms the subscription by visiting its SubscribeURL through the outbound guard', async () => {
    const { token } = await account();
    const subscribeUrl = `https://${SNS_HOST}:${port}/?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=2336412f37f`;
    const res = await post(
      token,
      snsMessage({
        Type: 'SubscriptionConfirmation',
        Token: '2336412f37f',
        Message: `You have chosen to subscribe to the topic ${TOPIC}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
        SubscribeURL: subscribeUrl,
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(confirmations).toEqual([`/?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=2336412f37f`]);
  });

  it('stores SES bounce, complaint and delivery notifications signed with SignatureVersion 1 and 2', async () => {
    const { userId, token } = await account();
    for (const [message, version] of [
      [SES_BOUNCE, '1'],
      [SES_COMPLAINT, '2'],
      [SES_DELIVERY, '2'],
    ] as const) {
      const res = await post(token, snsMessage({ Type: 'Notification', Message: message }, version));
      expect(res.json()).toEqual({ accepted: 1, duplicates: 0, ignored: 0, rejected: [] });
    }
    expect(await stored(userId)).toEqual([
      {
        messageId: '00000138111222aa-33322211-cccc-cccc-cccc-ddddaaaa0680-000000',
        recipient: 'jane@example.com',
        eventType: 'bounced',
        bounceClass: 'hard',
        enhancedStatus: '5.1.1',
        domain: 'example.com',
      },
      {
        messageId: '0000013786031775-163e3910-53eb-4c8e-a04a-f29debf88a84-000000',
        recipient: 'richard@example.com',
        eventType: 'complaint',
        bounceClass: null,
        enhancedStatus: null,
        domain: 'example.com',
      },
      {
        messageId: '0000014644fe5ef6-9a483358-9170-4cb4-a269-f5dcdf415321-000000',
        recipient: 'jane@example.com',
        eventType: 'delivered',
        bounceClass: null,
        enhancedStatus: null,
        domain: 'example.com',
      },
    ]);
  });

  it('refuses an altered message, one signed by another key and a certificate off AWS’s hosts, storing nothing', async () => {
    const { userId, token } = await account();
    const altered = snsMessage({ Type: 'Notification', Message: SES_BOUNCE }).replace(
      'jane@example.com',
      'joe@example.com',
    );
    const res = await post(token, altered);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/^Invalid Amazon SNS signature/);

    const forged = await post(token, snsMessage({ Type: 'Notification', Message: SES_BOUNCE }, '2', tls!.key));
    expect(forged.statusCode).toBe(401);

    const offHost = snsMessage({
      Type: 'Notification',
      Message: SES_BOUNCE,
      SigningCertURL: 'https://attacker.example/SimpleNotificationService-test.pem',
    });
    const refused = await post(token, offHost);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toMatch(/^SigningCertURL is not an https URL on an sns/);
    expect(await stored(userId)).toEqual([]);
  });
});
