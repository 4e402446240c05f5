import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/*
 * Third-party credentials at rest (seed mailbox passwords, ESP API keys): AES-256-GCM under a key
 * derived from APP_SECRET. A box reads `v1:<iv>:<tag>:<ciphertext>` (base64url), so a later format
 * or key scheme can sit beside v1 and old boxes still open.
 */

const VERSION = 'v1';
const IV_BYTES = 12; // the size GCM is specified for
const TAG_BYTES = 16;
// A fixed label: the same APP_SECRET also signs other things, and each use gets its own key.
const KEY_LABEL = 'inboxpulse secret-box v1 aes-256-gcm';

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export function encryptSecret(plain: string, appSecret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(appSecret), iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join(':');
}

/** Throws SecretBoxError when the box is malformed, was made with another APP_SECRET, or was altered. */
export function decryptSecret(box: string, appSecret: string): string {
  const parts = box.split(':');
  if (parts.length !== 4 || parts[0] !== VERSION)
    throw new SecretBoxError(`Not an encrypted secret (expected ${VERSION}:<iv>:<tag>:<ciphertext>)`);
  const [iv, tag, ciphertext] = parts.slice(1).map((p) => Buffer.from(p, 'base64url'));
  if (iv!.length !== IV_BYTES || tag!.length !== TAG_BYTES)
    throw new SecretBoxError('Not an encrypted secret (bad IV or tag length)');
  const decipher = createDecipheriv('aes-256-gcm', deriveKey(appSecret), iv!);
  decipher.setAuthTag(tag!);
  try {
    return Buffer.concat([decipher.update(ciphertext!), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError(
      'The encrypted secret cannot be opened: APP_SECRET is not the one it was encrypted with, or the stored value was altered',
    );
  }
}

function deriveKey(appSecret: string): Buffer {
  if (!appSecret) throw new SecretBoxError('APP_SECRET is empty');
  // HKDF, not a slow KDF: APP_SECRET is a long random value, not a password to stretch.
  return Buffer.from(hkdfSync('sha256', appSecret, '', KEY_LABEL, 32));
}
