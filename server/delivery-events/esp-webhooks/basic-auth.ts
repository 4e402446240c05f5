import { timingSafeEqual } from 'node:crypto';

// The ESPs that sign nothing (Postmark, SparkPost) can send basic-auth credentials the user sets; checked here.

/** Whether `text` is usable as credentials: user:password, neither empty. */
export function credentialsValid(text: string): boolean {
  const colon = text.indexOf(':');
  return colon > 0 && colon < text.length - 1 && !/\s/.test(text);
}

/** Whether the request's Authorization header carries exactly these credentials. */
export function basicAuthMatches(credentials: string, authorization: string | undefined): boolean {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization?.trim() ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1], 'base64');
  const expected = Buffer.from(credentials, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
