import { createPublicKey, type KeyObject } from 'node:crypto';
import type { Finding } from '@contracts/domains';
import { error } from './finding';

/** The key types verifiers know: RSA (RFC 6376) and Ed25519 (RFC 8463). */
export type DkimKeyType = 'rsa' | 'ed25519';

/** A p= value read as its k= says: the key's size, or what is wrong with it. */
export type PublicKeyReading = { bits: number } | { problem: Finding };

const COPY_AGAIN =
  'Copy the public key again from your provider, whole: only letters, digits, +, / and a final = or == belong in p=.';

function parseDer(der: Buffer, type: 'spki' | 'pkcs1'): KeyObject | null {
  try {
    return createPublicKey({ key: der, format: 'der', type });
  } catch {
    return null;
  }
}

/**
 * The key in a p= value (RFC 6376 section 3.6.1: base64, white space allowed anywhere). k=rsa names
 * a DER RSAPublicKey while the RFC's examples publish a SubjectPublicKeyInfo: verifiers (OpenDKIM,
 * dkimpy) accept both, so both are read. An Ed25519 key is the bare 32 bytes (RFC 8463 section 4.2).
 */
export function readPublicKey(name: string, keyType: DkimKeyType, p: string): PublicKeyReading {
  const base64 = p.replace(/[ \t]/g, '');
  const stray = /[^A-Za-z0-9+/=]/.exec(base64)?.[0] ?? (/=[^=]|={3}/.test(base64) ? '=' : undefined);
  if (stray) {
    const what = stray === '"' ? 'quotation marks' : stray === '=' ? '"=" before its end' : `"${stray}"`;
    return { problem: error(`The p= value at ${name} is not base64: it contains ${what}.`, COPY_AGAIN) };
  }
  const der = Buffer.from(base64, 'base64');
  if (keyType === 'ed25519') return readEd25519(name, der);
  const key = parseDer(der, 'spki') ?? parseDer(der, 'pkcs1');
  if (!key)
    return {
      problem: error(
        `The p= value at ${name} is not an RSA public key: it decodes to neither a SubjectPublicKeyInfo nor a PKCS#1 RSAPublicKey.`,
        COPY_AGAIN,
      ),
    };
  if (key.asymmetricKeyType !== 'rsa')
    return {
      problem: error(
        `The p= value at ${name} holds an ${key.asymmetricKeyType} key, not the RSA key k=rsa says.`,
        'Publish the record your provider gives you for this key: k= must name the type of the key in p=.',
      ),
    };
  return { bits: key.asymmetricKeyDetails!.modulusLength! };
}

function readEd25519(name: string, der: Buffer): PublicKeyReading {
  if (der.length === 32) return { bits: 256 };
  // Some key generators print the key wrapped as a SubjectPublicKeyInfo: the bare key is its last 32 bytes.
  const wrapped = parseDer(der, 'spki');
  if (wrapped?.asymmetricKeyType === 'ed25519') {
    const bare = Buffer.from(wrapped.export({ format: 'jwk' }).x!, 'base64url').toString('base64');
    return {
      problem: error(
        `The Ed25519 key at ${name} is wrapped as a SubjectPublicKeyInfo (${der.length} bytes); RFC 8463 section 4.2 publishes the bare 32-byte key.`,
        `Publish the key itself: p=${bare}`,
      ),
    };
  }
  return {
    problem: error(
      `The Ed25519 key at ${name} is ${der.length} bytes, not the 32 bytes of an Ed25519 public key (RFC 8463 section 4.2).`,
      COPY_AGAIN,
    ),
  };
}
