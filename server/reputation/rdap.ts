import { isIP } from 'node:net';
import type { Logger } from 'pino';
import { getDomain } from 'tldts';

/*
 * A domain's registrar and registration date from RDAP (RFC 9083), the registries' JSON successor to
 * WHOIS. rdap.org redirects each query to the registry of the domain's TLD. The answer is a nicety on
 * the reputation screen: whatever goes wrong leaves the fields unknown, never an error to the user.
 */

export interface Registration {
  registrar: string | null;
  registeredAt: Date | null;
}

export interface RdapOptions {
  /** RDAP_BASE_URL: a bootstrap service (https://rdap.org) or a registry's RDAP server. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** For the whole look-up, redirects and body included. */
  timeoutMs?: number;
  log?: Pick<Logger, 'warn'>;
}

const NOTHING: Registration = { registrar: null, registeredAt: null };
const MAX_REDIRECTS = 3;
const MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 5000;

class RdapError extends Error {}

/** What RDAP says of the registered domain `domain` belongs to (mail.brand.com asks for brand.com). */
export async function lookUpRegistration(domain: string, options: RdapOptions): Promise<Registration> {
  const name = getDomain(domain) ?? domain;
  const base = new URL(options.baseUrl);
  const url = new URL(`${base.pathname.replace(/\/$/, '')}/domain/${encodeURIComponent(name)}`, base);
  try {
    const body = await fetchFollowing(url, isLoopbackHttp(base), options);
    return body === null ? NOTHING : registrationIn(body);
  } catch (error) {
    // The host alone: a configured base URL may carry credentials in its user info or query.
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : (error as Error).message;
    options.log?.warn({ domain: name, rdapHost: url.host, reason }, 'RDAP look-up failed');
    return NOTHING;
  }
}

/** Tests run an RDAP server on loopback over plain http; anything else must be https. */
function isLoopbackHttp(url: URL): boolean {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return (
    url.protocol === 'http:' &&
    (host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.')))
  );
}

/** The JSON answer, following at most MAX_REDIRECTS redirects; null for 404 (the registry does not know the name). */
async function fetchFollowing(start: URL, allowLoopbackHttp: boolean, options: RdapOptions): Promise<unknown> {
  const doFetch = options.fetch ?? fetch;
  const signal = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let url = start;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'https:' && !(allowLoopbackHttp && isLoopbackHttp(url)))
      throw new RdapError(`refused to follow a non-https URL (${url.protocol}//${url.host})`);
    const response = await doFetch(url, {
      redirect: 'manual',
      signal,
      headers: { accept: 'application/rdap+json, application/json' },
    });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new RdapError(`more than ${MAX_REDIRECTS} redirects`);
      url = new URL(location, url);
      continue;
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new RdapError(`HTTP ${response.status}`);
    }
    return JSON.parse(await cappedText(response));
  }
}

async function cappedText(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) {
    await response.body?.cancel();
    throw new RdapError(`answer larger than ${MAX_BODY_BYTES} bytes`);
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new RdapError(`answer larger than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** RFC 9083: the "registration" event's date, and the "fn" of the entity whose roles include "registrar". */
function registrationIn(body: unknown): Registration {
  if (!isRecord(body)) throw new RdapError('the answer is not a JSON object');
  const event = asArray(body.events).find((e) => isRecord(e) && e.eventAction === 'registration');
  const date = isRecord(event) && typeof event.eventDate === 'string' ? new Date(event.eventDate) : null;
  const registrar = asArray(body.entities).find((e) => isRecord(e) && asArray(e.roles).includes('registrar'));
  return {
    registrar: isRecord(registrar) ? vcardName(registrar.vcardArray) : null,
    registeredAt: date && !Number.isNaN(date.getTime()) ? date : null,
  };
}

/** jCard (RFC 7095): ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "Name"], ...]]. */
function vcardName(vcard: unknown): string | null {
  const fn = asArray(asArray(vcard)[1]).find((property) => Array.isArray(property) && property[0] === 'fn');
  const value = Array.isArray(fn) ? fn[3] : null;
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, 200) : null;
}
