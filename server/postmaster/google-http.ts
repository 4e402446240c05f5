/*
 * One bounded call to a Google endpoint (the OAuth token endpoint, the Postmaster Tools API) that
 * turns Google's answer into JSON or a GoogleError carrying Google's own error text. The base URLs
 * are the operator's (env), not a user's, so the request does not need the outbound guard (as with
 * Twilio). Tokens never reach a log or an error message: Google's error bodies do not echo them.
 */

/**
 * revoked: the token endpoint's invalid_grant (the refresh token was revoked or expired; a code was
 * used or expired); refused: any other 4xx; rate_limited: 429 (or RESOURCE_EXHAUSTED);
 * unavailable: 5xx, no answer, a timeout; malformed: a 2xx answer that is not the documented JSON.
 */
export type GoogleErrorKind = 'revoked' | 'refused' | 'rate_limited' | 'unavailable' | 'malformed';

export class GoogleError extends Error {
  constructor(
    message: string,
    readonly kind: GoogleErrorKind,
    /** Google's HTTP status; null when it gave none. */
    readonly status: number | null = null,
    /** Google's error code: invalid_grant, invalid_client (OAuth), PERMISSION_DENIED, NOT_FOUND (APIs). */
    readonly code: string | null = null,
    /** For rate_limited: how long Google asked us to wait. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'GoogleError';
  }
}

export const GOOGLE_TIMEOUT_MS = 15_000;
/** A 429 without Retry-After waits this long; a longer wait than a day is taken as a day. */
const DEFAULT_RETRY_AFTER_SECONDS = 60;
const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;
const MAX_ANSWER_CHARS = 4 * 1024 * 1024;

/** Retry-After as seconds or an HTTP date, at least 1 s and at most a day. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number {
  const clamp = (seconds: number) => Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(seconds)));
  const trimmed = value?.trim();
  if (!trimmed) return DEFAULT_RETRY_AFTER_SECONDS;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return clamp(Number(trimmed));
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? DEFAULT_RETRY_AFTER_SECONDS : clamp((at - now) / 1000);
}

/** Google's error bodies: OAuth's {error, error_description}, the APIs' {error: {code, message, status}}. */
function errorOf(body: unknown): { code: string | null; text: string | null } {
  if (!body || typeof body !== 'object')
    return { code: null, text: typeof body === 'string' && body.trim() ? body.trim() : null };
  const o = body as Record<string, unknown>;
  if (typeof o.error === 'string') {
    const description = typeof o.error_description === 'string' && o.error_description ? o.error_description : null;
    return { code: o.error, text: description ? `${description} (${o.error})` : o.error };
  }
  if (o.error && typeof o.error === 'object') {
    const e = o.error as Record<string, unknown>;
    const status = typeof e.status === 'string' ? e.status : null;
    const message = typeof e.message === 'string' && e.message ? e.message : null;
    return { code: status, text: message ?? status };
  }
  return { code: null, text: null };
}

/** One line, bounded: error texts are stored and shown. */
function tidy(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface GoogleRequest {
  method?: 'GET' | 'POST';
  /** Sent as application/x-www-form-urlencoded (the token endpoint). */
  form?: Record<string, string>;
  accessToken?: string;
}

/** The parsed JSON of Google's 2xx answer to `url`; anything else throws GoogleError naming `what`. */
export async function googleJson(what: string, url: string, request: GoogleRequest = {}): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'InboxPulse/1.0' };
  if (request.accessToken) headers.authorization = `Bearer ${request.accessToken}`;
  if (request.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: request.method ?? (request.form ? 'POST' : 'GET'),
      headers,
      body: request.form ? new URLSearchParams(request.form).toString() : undefined,
      signal: AbortSignal.timeout(GOOGLE_TIMEOUT_MS),
      redirect: 'error',
    });
    text = await res.text();
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new GoogleError(
      timedOut ? `${what} did not answer within ${GOOGLE_TIMEOUT_MS / 1000} seconds` : `${what} could not be reached`,
      'unavailable',
    );
  }
  const body = parse(text);
  const { code, text: said } = errorOf(body);
  if (res.status === 429 || code === 'RESOURCE_EXHAUSTED') {
    const wait = retryAfterSeconds(res.headers.get('retry-after'));
    throw new GoogleError(
      `${what} is rate limiting requests (HTTP ${res.status}); it asked to wait ${wait} seconds`,
      'rate_limited',
      res.status,
      code,
      wait,
    );
  }
  if (!res.ok) {
    const kind = res.status >= 500 ? 'unavailable' : code === 'invalid_grant' ? 'revoked' : 'refused';
    throw new GoogleError(
      `${what}: ${tidy(said ?? `HTTP ${res.status}`)} (HTTP ${res.status})`,
      kind,
      res.status,
      code,
    );
  }
  if (text.length > MAX_ANSWER_CHARS)
    throw new GoogleError(`${what} answered with more than 4 MB`, 'malformed', res.status);
  if (typeof body !== 'object' || body === null)
    throw new GoogleError(
      `${what} answered with something that is not JSON (HTTP ${res.status})`,
      'malformed',
      res.status,
    );
  return body;
}
