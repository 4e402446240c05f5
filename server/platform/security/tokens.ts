import { hash, randomBytes } from 'node:crypto';

/** A random 256-bit token for cookies and mailed links. Only its hash is ever stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256, hex. The one-shot hash: every signed-in request runs it, at a third of createHash's cost. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** How many presented tokens hashPresentedToken remembers; past it, it starts over. */
export const REMEMBERED_TOKENS = 10_000;
const presentedHashes = new Map<string, string>();

/**
 * hashToken of a credential a request presents (the session cookie, an API key), remembered for the
 * tokens seen lately: the same few tokens come back on every request, and hashing was, after the
 * socket write, the largest single cost of a signed-in request served from the session cache
 * (bench:api). The map holds what this process already holds in those requests' headers, at most
 * REMEMBERED_TOKENS of them; a token that stops working still hashes the same, so nothing in it goes stale.
 */
export function hashPresentedToken(token: string): string {
  let tokenHash = presentedHashes.get(token);
  if (tokenHash === undefined) {
    if (presentedHashes.size >= REMEMBERED_TOKENS) presentedHashes.clear();
    tokenHash = hashToken(token);
    presentedHashes.set(token, tokenHash);
  }
  return tokenHash;
}

/** How many tokens hashPresentedToken holds now (its bound is tested). */
export const rememberedTokenCount = (): number => presentedHashes.size;
