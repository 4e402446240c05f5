import type { Env } from '../../platform/env';
/*
 * Alert SMS through Twilio's Messages API. Only critical alerts go by SMS (part 2, section 6: "SMS
 * (critical only)"): the caller decides, this sends what it is given. The base URL comes from env
 * (TWILIO_BASE_URL) so tests talk to a loopback server; it is the operator's, not a user's, so the
 * request does not need the outbound guard. The auth token never reaches a log or an error message.
 */

export interface TwilioSettings {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** The sending number (E.164) or messaging service's sender. */
  from: string;
}

/** The server's Twilio account, or null when its three credentials are not all set: then no SMS can be sent. */
export function twilioSettingsOf(
  env: Pick<Env, 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN' | 'TWILIO_FROM' | 'TWILIO_BASE_URL'>,
): TwilioSettings | null {
  const { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM, TWILIO_BASE_URL } = env;
  if (!TWILIO_ACCOUNT_SID || !TWILIO_AUTH_TOKEN || !TWILIO_FROM) return null;
  return { baseUrl: TWILIO_BASE_URL, accountSid: TWILIO_ACCOUNT_SID, authToken: TWILIO_AUTH_TOKEN, from: TWILIO_FROM };
}

/** An SMS Twilio accepted: its id and status (queued, sending, sent...). */
export interface SentSms {
  sid: string;
  status: string;
}

export class TwilioError extends Error {
  constructor(
    message: string,
    /** Twilio's error code (21211: invalid To number...), or null when Twilio gave none. */
    readonly code: number | null,
    readonly httpStatus: number | null,
  ) {
    super(message);
    this.name = 'TwilioError';
  }
}

/** Two SMS segments: alerts are short, and a long one costs the user several messages. */
export const SMS_MAX_CHARS = 320;
const TIMEOUT_MS = 10_000;

/** Sends `body` (cut to 320 characters with an ellipsis) to `to`; throws TwilioError unless Twilio accepted it. */
export async function sendSms(
  settings: TwilioSettings,
  to: string,
  body: string,
  options: { timeoutMs?: number } = {},
): Promise<SentSms> {
  const url = `${settings.baseUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({ To: to, From: settings.from, Body: smsText(body) }).toString(),
      signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new TwilioError(timedOut ? 'Twilio did not answer in time' : 'Twilio could not be reached', null, null);
  }
  const text = await res.text();
  const json = parseJson(text);
  if (res.ok) {
    if (typeof json?.sid !== 'string')
      throw new TwilioError(`Twilio answered HTTP ${res.status} without a message id`, null, res.status);
    return { sid: json.sid, status: typeof json.status === 'string' ? json.status : 'queued' };
  }
  // Twilio's error body: {code, message, more_info, status}.
  const code = typeof json?.code === 'number' ? json.code : null;
  const message = typeof json?.message === 'string' ? json.message : `HTTP ${res.status}`;
  throw new TwilioError(
    `Twilio refused the SMS${code === null ? '' : ` (error ${code})`}: ${message}`,
    code,
    res.status,
  );
}

/** At most 320 characters (whole characters, not halves of an emoji), the cut marked with an ellipsis. */
export function smsText(body: string): string {
  const chars = Array.from(body);
  return chars.length <= SMS_MAX_CHARS ? body : `${chars.slice(0, SMS_MAX_CHARS - 1).join('')}…`;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
