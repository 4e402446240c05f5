import { describe, expect, it } from 'vitest';
import { hashPresentedToken, hashToken, newToken, REMEMBERED_TOKENS, rememberedTokenCount } from './tokens';

describe('hashPresentedToken', () => {
  it('is the stored hash of the token, the first time and every time after', () => {
    const token = newToken();
    expect(hashPresentedToken(token)).toBe(hashToken(token));
    expect(hashPresentedToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashPresentedToken(newToken())).not.toBe(hashToken(token));
  });

  it('remembers a bounded number of tokens, however many a client makes up', () => {
    for (let i = 0; i < REMEMBERED_TOKENS + 500; i++) hashPresentedToken(`made-up-${i}`);
    expect(rememberedTokenCount()).toBeLessThanOrEqual(REMEMBERED_TOKENS);
    expect(hashPresentedToken('made-up-7')).toBe(hashToken('made-up-7'));
  });
});
