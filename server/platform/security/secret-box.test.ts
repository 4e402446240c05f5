import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, SecretBoxError } from './secret-box';

const SECRET = 'test-secret-test-secret-test-secret-0123';

describe('secret box', () => {
  it('opens what it sealed, including unicode, and seals the same text differently each time', () => {
    const plain = 'pässwörd: with spaces, colons:and 🔑';
    const box = encryptSecret(plain, SECRET);
    expect(box).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(box).not.toContain('pässwörd');
    expect(decryptSecret(box, SECRET)).toBe(plain);
    expect(encryptSecret(plain, SECRET)).not.toBe(box);
    expect(decryptSecret(encryptSecret('', SECRET), SECRET)).toBe('');
  });

  it('refuses another APP_SECRET with a clear error', () => {
    const box = encryptSecret('hunter2', SECRET);
    expect(() => decryptSecret(box, `${SECRET}-other`)).toThrow(SecretBoxError);
    expect(() => decryptSecret(box, `${SECRET}-other`)).toThrow(/APP_SECRET is not the one it was encrypted with/);
  });

  it('refuses a box that was altered or is not a box', () => {
    const [version, iv, tag, ciphertext] = encryptSecret('hunter2', SECRET).split(':');
    const flipped = Buffer.from(ciphertext!, 'base64url');
    flipped[0] ^= 1;
    expect(() => decryptSecret([version, iv, tag, flipped.toString('base64url')].join(':'), SECRET)).toThrow(/altered/);
    expect(() =>
      decryptSecret([version, iv, Buffer.alloc(16).toString('base64url'), ciphertext].join(':'), SECRET),
    ).toThrow(/altered/);
    expect(() => decryptSecret('hunter2', SECRET)).toThrow(/Not an encrypted secret/);
    expect(() => decryptSecret(['v2', iv, tag, ciphertext].join(':'), SECRET)).toThrow(/Not an encrypted secret/);
    expect(() => decryptSecret([version, 'AAAA', tag, ciphertext].join(':'), SECRET)).toThrow(/bad IV or tag length/);
  });
});
