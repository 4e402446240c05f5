import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendSms, smsText, TwilioError, type TwilioSettings } from './twilio';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token-secret';

describe('Twilio SMS', () => {
  let twilio: Server;
  let settings: TwilioSettings;
  let answer: { status: number; json: unknown } | 'silent';
  let received: { method?: string; path?: string; headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    // A loopback stand-in answering with the shapes of Twilio's API reference (Messages resource).
    twilio = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        received.push({ method: req.method, path: req.url, headers: req.headers, body });
        if (answer === 'silent') return;
        const json =
          answer.json === 'echo'
            ? {
                account_sid: SID,
                api_version: '2010-04-01',
                body: new URLSearchParams(body).get('Body'),
                date_created: 'Thu, 26 Nov 2026 10:00:00 +0000',
                direction: 'outbound-api',
                error_code: null,
                error_message: null,
                from: new URLSearchParams(body).get('From'),
                num_segments: '1',
                price: null,
                sid: 'SM1f0e8ae6ade43cb3c0ce4525424e404f',
                status: 'queued',
                to: new URLSearchParams(body).get('To'),
                uri: `/2010-04-01/Accounts/${SID}/Messages/SM1f0e8ae6ade43cb3c0ce4525424e404f.json`,
              }
            : answer.json;
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      });
    });
    await new Promise<void>((resolve) => twilio.listen(0, '127.0.0.1', resolve));
    settings = {
      baseUrl: `http://127.0.0.1:${(twilio.address() as AddressInfo).port}/`,
      accountSid: SID,
      authToken: TOKEN,
      from: '+15017122661',
    };
  });
  afterAll(() => {
    twilio.closeAllConnections();
    twilio.close();
  });
  beforeEach(() => {
    received = [];
    answer = { status: 201, json: 'echo' };
  });

  it('posts To, From and Body form-encoded with basic auth to the Messages resource', async () => {
    const sent = await sendSms(settings, '+15558675310', 'Critical: example.com listed on Spamhaus DBL');
    expect(sent).toEqual({ sid: 'SM1f0e8ae6ade43cb3c0ce4525424e404f', status: 'queued' });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ method: 'POST', path: `/2010-04-01/Accounts/${SID}/Messages.json` });
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(request!.body))).toEqual({
      To: '+15558675310',
      From: '+15017122661',
      Body: 'Critical: example.com listed on Spamhaus DBL',
    });
  });

  it('cuts a body past 320 characters with an ellipsis, never inside an emoji', async () => {
    await sendSms(settings, '+15558675310', `${'a'.repeat(318)}🚨🚨🚨`);
    const body = new URLSearchParams(received[0]!.body).get('Body')!;
    expect(Array.from(body)).toHaveLength(320);
    expect(body).toBe(`${'a'.repeat(318)}🚨…`);
    expect(smsText('short')).toBe('short');
    expect(smsText('b'.repeat(320))).toBe('b'.repeat(320));
  });

  it('turns Twilio’s error JSON into the error text, without the auth token', async () => {
    answer = {
      status: 400,
      json: {
        code: 21211,
        message: "The 'To' number +1555 is not a valid phone number.",
        more_info: 'https://www.twilio.com/docs/errors/21211',
        status: 400,
      },
    };
    const error = (await sendSms(settings, '+1555', 'x').catch((e: unknown) => e)) as TwilioError;
    expect(error).toBeInstanceOf(TwilioError);
    expect(error.message).toBe(
      "Twilio refused the SMS (error 21211): The 'To' number +1555 is not a valid phone number.",
    );
    expect(error).toMatchObject({ code: 21211, httpStatus: 400 });
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(TOKEN);

    answer = {
      status: 401,
      json: {
        code: 20003,
        message: 'Authenticate',
        more_info: 'https://www.twilio.com/docs/errors/20003',
        status: 401,
      },
    };
    await expect(sendSms(settings, '+15558675310', 'x')).rejects.toThrow(
      'Twilio refused the SMS (error 20003): Authenticate',
    );
    answer = { status: 502, json: 'not json at all' };
    await expect(sendSms(settings, '+15558675310', 'x')).rejects.toThrow('Twilio refused the SMS: HTTP 502');
  });

  it('gives up on a Twilio that does not answer, and says so when it cannot be reached', async () => {
    answer = 'silent';
    await expect(sendSms(settings, '+15558675310', 'x', { timeoutMs: 300 })).rejects.toThrow(
      'Twilio did not answer in time',
    );
    await expect(sendSms({ ...settings, baseUrl: 'http://127.0.0.1:1' }, '+15558675310', 'x')).rejects.toThrow(
      'Twilio could not be reached',
    );
  });
});
