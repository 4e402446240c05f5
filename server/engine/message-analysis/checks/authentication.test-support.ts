import type { AuthenticationResults } from './authentication';

/**
 * The DKIM signature analyzeAuthentication reports for brand-mail.com's own mail signed with its 2048-bit RSA
 * key at selector s1: what authentication.test.ts expects of the analysis and the findings tests start from.
 */
export const brandSignature: Omit<AuthenticationResults['dkim'][number], 'comment'> = {
  domain: 'brand-mail.com',
  selector: 's1',
  result: 'pass',
  aligned: true,
  algorithm: 'rsa-sha256',
  keyBits: 2048,
};
