import { hash, randomBytes } from 'node:crypto';

/** A random 256-bit token for cookies and mailed links. Only its hash is ever stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256, hex. The one-shot hash: every signed-in request runs it, at a third of createHash's cost. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}
