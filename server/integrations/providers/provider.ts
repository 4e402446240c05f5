import { z } from 'zod';
import type { PluginId } from '@content/integrations';
import { utcDay } from '@contracts/utc-day';
import type { DayFigures } from '../../delivery-events/delivery-events.service';
import type { Env } from '../../platform/env';
import { OutboundRequestError, type OutboundGuard } from '../../platform/security/outbound-address';

/*
 * What every ESP client shares: one bounded, guarded HTTP call that turns a provider's answer into
 * JSON or a ProviderError carrying the provider's own error text, and the daily figures a client
 * returns. Each provider's file says how it signs in, which endpoints it calls and how it reads them.
 */

/** The base URLs of the providers' APIs (server/platform/env.ts). */
export type ProviderEnv = Pick<
  Env,
  | 'SENDGRID_API_BASE_URL'
  | 'MAILCHIMP_API_BASE_URL'
  | 'KLAVIYO_API_BASE_URL'
  | 'MAILGUN_API_BASE_URL'
  | 'MAILGUN_EU_API_BASE_URL'
  | 'SMTP2GO_API_BASE_URL'
  | 'CONSTANTCONTACT_API_BASE_URL'
  | 'HUBSPOT_API_BASE_URL'
  | 'BREVO_API_BASE_URL'
  | 'ACTIVECAMPAIGN_API_BASE_URL'
  | 'SPARKPOST_API_BASE_URL'
  | 'SPARKPOST_EU_API_BASE_URL'
  | 'OMNISEND_API_BASE_URL'
  | 'SHOPIFY_API_BASE_URL'
  | 'GETRESPONSE_API_BASE_URL'
>;

/** A plugin's config with its secrets opened: field name to value (content/integrations.ts). */
export type PluginConfig = Readonly<Record<string, string>>;

/** One UTC day of a provider's sending figures: the day figures every source stores (delivery-events), dated. */
export interface DailyStats extends DayFigures {
  date: string;
}

/**
 * refused: the provider answered 4xx (a wrong key, a missing permission) or the address is not
 * allowed; rate_limited: 429; unavailable: 5xx, no answer, a timeout; malformed: a 2xx answer that
 * is not what its API reference documents.
 */
export type ProviderErrorKind = 'refused' | 'rate_limited' | 'unavailable' | 'malformed';

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: ProviderErrorKind,
    /** The provider's HTTP status; null when it gave none. */
    readonly status: number | null = null,
    /** For rate_limited: how long the provider asked us to wait. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
}

/** A provider's HTTP access, bound to its name and error format. */
export interface ProviderHttp {
  readonly env: ProviderEnv;
  /** The parsed JSON of a 2xx answer to `url`; any other answer throws ProviderError. */
  json(url: string, options?: RequestOptions): Promise<unknown>;
  /** The 2xx answer to `url` read with the shape its API reference documents (readAnswer); else ProviderError. */
  read<T>(schema: z.ZodType<T>, url: string, options?: RequestOptions): Promise<T>;
}

export interface EspProvider {
  id: PluginId;
  name: string;
  /** The text of the provider's documented error body, when the body has it. */
  errorText(body: unknown): string | undefined;
  /** One cheap authenticated call that proves the credentials (and the permissions a sync needs) work; throws ProviderError. */
  testConnection(http: ProviderHttp, config: PluginConfig): Promise<void>;
  /**
   * The daily figures from `from` to `to` (UTC days, inclusive), for providers that offer them. Days
   * the provider does not list are left out (nothing was sent, or it has no figures for them).
   */
  fetchDailyStats?(http: ProviderHttp, config: PluginConfig, from: string, to: string): Promise<DailyStats[]>;
  /** At most this many days are asked for in one sync (providers that cost one request a day). */
  maxDaysPerSync?: number;
}

/** A provider's answers are JSON of a few kilobytes; a month of daily figures stays far below this. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
export const PROVIDER_TIMEOUT_MS = 15_000;
/** When a 429 names no wait, and the most any provider's wait is taken at. */
const DEFAULT_RETRY_AFTER_SECONDS = 60;
const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;

/** How long a 429 asks to wait: Retry-After (seconds or an HTTP date), else a rate-limit reset header (epoch or seconds). */
export function retryAfterSeconds(headers: Record<string, string | string[] | undefined>, now = Date.now()): number {
  const first = (name: string) => {
    const value = headers[name];
    return (Array.isArray(value) ? value[0] : value)?.trim();
  };
  const clamp = (seconds: number) => Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(seconds)));
  const retryAfter = first('retry-after');
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return clamp(Number(retryAfter));
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return clamp((at - now) / 1000);
  }
  // SendGrid: an epoch time; Brevo: seconds; GetResponse: "599 seconds"; the IETF draft's RateLimit-Reset: seconds.
  for (const name of ['x-ratelimit-reset', 'x-sib-ratelimit-reset', 'ratelimit-reset', 'x-rate-limit-reset']) {
    const number = first(name)?.match(/^(\d+(?:\.\d+)?)(?:\s*seconds?)?$/i)?.[1];
    if (!number) continue;
    const n = Number(number);
    return clamp(n > 1_000_000_000 ? n - now / 1000 : n);
  }
  return DEFAULT_RETRY_AFTER_SECONDS;
}

/** Common shapes of API error bodies: {message}, {error}, {error: {message}}, {errors: [{message|detail|title}]}, {detail}, {title}. */
export function commonErrorText(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() || undefined;
  if (Array.isArray(body)) return joinTexts(body.map(commonErrorText));
  if (!body || typeof body !== 'object') return undefined;
  const o = body as Record<string, unknown>;
  for (const key of ['message', 'error_message', 'detail', 'error_description'])
    if (typeof o[key] === 'string' && o[key]) return o[key] as string;
  if (typeof o.error === 'string' && o.error) return o.error;
  if (o.error && typeof o.error === 'object') return commonErrorText(o.error);
  if (Array.isArray(o.errors)) return joinTexts(o.errors.map(commonErrorText));
  if (typeof o.errors === 'string') return o.errors;
  if (typeof o.title === 'string' && o.title) return o.title;
  return undefined;
}

/** The non-empty text at `key` of an error body (or of one entry of its list), if there is one. */
export function textAt(body: unknown, key: string): string | undefined {
  const value = (body as Record<string, unknown> | null | undefined)?.[key];
  return typeof value === 'string' && value ? value : undefined;
}

/** A JSON:API error body's text (https://jsonapi.org/format/#error-objects): each error's detail, else its title. */
export function jsonApiErrorText(body: unknown): string | undefined {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return undefined;
  const texts = errors.map((e) => textAt(e, 'detail') ?? textAt(e, 'title'));
  return texts.filter(Boolean).join('; ') || undefined;
}

export function joinTexts(texts: (string | undefined)[]): string | undefined {
  const unique = [...new Set(texts.filter((t): t is string => Boolean(t && t.trim())).map((t) => t.trim()))];
  return unique.length > 0 ? unique.join('; ') : undefined;
}

/** Error texts are shown to the user and stored: one line, bounded. */
function tidy(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

function parseBody(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Why the guard got no answer, in words for the user: its own message names addresses and ports (for logs). */
function unreachable(name: string, url: URL, err: OutboundRequestError): ProviderError {
  switch (err.reason) {
    case 'not_public':
      return new ProviderError(
        `${url.hostname} points to a private or local address, which InboxPulse does not connect to`,
        'refused',
      );
    case 'dns':
    case 'no_address':
      return new ProviderError(`${url.hostname} could not be found (DNS)`, 'refused');
    case 'timeout':
      return new ProviderError(`${name} did not answer within ${PROVIDER_TIMEOUT_MS / 1000} seconds`, 'unavailable');
    default:
      return new ProviderError(`${name} could not be reached`, 'unavailable');
  }
}

/** The HTTP access of one provider, through the outbound guard: public addresses only, bounded in time and size, no redirects. */
export function providerHttp(
  guard: OutboundGuard,
  env: ProviderEnv,
  provider: Pick<EspProvider, 'name' | 'errorText'>,
): ProviderHttp {
  async function json(url: string, options: RequestOptions = {}): Promise<unknown> {
    const target = new URL(url);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': 'InboxPulse/1.0',
      ...options.headers,
    };
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    let res;
    try {
      res = await guard.fetch(target, {
        method: options.method ?? 'GET',
        headers,
        body,
        timeoutMs: PROVIDER_TIMEOUT_MS,
        maxBytes: MAX_ANSWER_BYTES,
      });
    } catch (err) {
      if (err instanceof OutboundRequestError) throw unreachable(provider.name, target, err);
      throw err;
    }
    const { status } = res;
    if (status === 429) {
      const wait = retryAfterSeconds(res.headers);
      throw new ProviderError(
        `${provider.name} is rate limiting requests (HTTP 429); it asked to wait ${wait} seconds`,
        'rate_limited',
        429,
        wait,
      );
    }
    if (status >= 300 && status < 400) {
      throw new ProviderError(
        `${provider.name} answered with a redirect (HTTP ${status}) instead of its API: check the address`,
        'refused',
        status,
      );
    }
    if (status >= 400 || status < 200) {
      const parsed = parseBody(res.body);
      const text = provider.errorText(parsed) ?? commonErrorText(parsed) ?? `HTTP ${status}`;
      throw new ProviderError(`${tidy(text)} (HTTP ${status})`, status >= 500 ? 'unavailable' : 'refused', status);
    }
    if (res.truncated)
      throw new ProviderError(
        `${provider.name} answered with more than ${MAX_ANSWER_BYTES / 1024 / 1024} MB`,
        'malformed',
        status,
      );
    if (res.body.length === 0) return null;
    try {
      return JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new ProviderError(
        `${provider.name} answered with something that is not JSON (HTTP ${status})`,
        'malformed',
        status,
      );
    }
  }
  return {
    env,
    json,
    read: async (schema, url, options) => readAnswer(provider.name, schema, await json(url, options)),
  };
}

/** The answer read with the shape its API reference documents, or ProviderError('malformed') naming what differs. */
export function readAnswer<T>(name: string, schema: z.ZodType<T>, answer: unknown): T {
  const parsed = schema.safeParse(answer);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new ProviderError(
    `${name} answered in an unexpected shape${where}: ${issue?.message ?? 'not as documented'}`,
    'malformed',
  );
}

/** A base URL with the user's part filled in ({dc}, {host}). */
export function fillBase(template: string, values: Record<string, string>): string {
  return template.replace(/\{([a-z]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

export const basicAuth = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** The UTC day of a provider's time stamp ("2024-03-01T05:00:00+00:00", "Mon, 13 Jan 2020 00:00:00 UTC"); undefined when it is none. */
export function utcDayOf(time: string): string | undefined {
  const at = Date.parse(time);
  return Number.isNaN(at) ? undefined : utcDay(at);
}

/** The UTC day of a provider's time stamp when it lies within `from` to `to` (inclusive); else undefined. */
export function dayWithin(time: string | null | undefined, from: string, to: string): string | undefined {
  const day = time ? utcDayOf(time) : undefined;
  return day && day >= from && day <= to ? day : undefined;
}

/** A day of figures: the ones given, the rest 0, each a whole number of at least 0; bounced is hard + soft unless given. */
export function dayOf(date: string, figures: Partial<Omit<DailyStats, 'date'>>): DailyStats {
  const n = (value: number | undefined) => (Number.isFinite(value) && value! > 0 ? Math.round(value!) : 0);
  const hardBounces = n(figures.hardBounces);
  const softBounces = n(figures.softBounces);
  return {
    date,
    emailsSent: n(figures.emailsSent),
    delivered: n(figures.delivered),
    bounced: figures.bounced === undefined ? hardBounces + softBounces : n(figures.bounced),
    hardBounces,
    softBounces,
    deferred: n(figures.deferred),
    complaints: n(figures.complaints),
    opens: n(figures.opens),
    clicks: n(figures.clicks),
  };
}

/** Figures of several sources (campaigns, domains) added up per day, sorted by day. */
export function addUpByDay(days: DailyStats[]): DailyStats[] {
  const byDay = new Map<string, DailyStats>();
  for (const d of days) {
    const total = byDay.get(d.date);
    if (!total) {
      byDay.set(d.date, { ...d });
      continue;
    }
    for (const key of [
      'emailsSent',
      'delivered',
      'bounced',
      'hardBounces',
      'softBounces',
      'deferred',
      'complaints',
      'opens',
      'clicks',
    ] as const)
      total[key] += d[key];
  }
  return [...byDay.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** A count as providers write it: a number, a numeric string (GetResponse, ActiveCampaign), null or missing (0). */
export const Count = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\s*\d+(\.\d+)?\s*$/, 'expected a number')
      .transform(Number),
    z.null(),
  ])
  .optional()
  .transform((value) => value ?? 0);

/**
 * The error with any of `secrets` that the provider quoted back (some APIs repeat the key they
 * refused) replaced: its text is stored, listed and put in alerts.
 */
export function withoutSecrets(err: ProviderError, secrets: string[]): ProviderError {
  let message = err.message;
  for (const secret of secrets) if (secret.length >= 6) message = message.split(secret).join('[key]');
  return message === err.message ? err : new ProviderError(message, err.kind, err.status, err.retryAfterSeconds);
}
