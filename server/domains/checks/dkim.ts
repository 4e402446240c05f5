import { createPublicKey } from 'node:crypto';
import type { z } from 'zod';
import type { DkimCheck, DkimSelectorResult, Finding } from '@contracts/domains';
import type { DnsResolver } from '../../platform/dns/resolver';
import { error, info, statusOf, warning } from './finding';
import { parseTags } from './tag-list';

/** Selectors the big senders use; probed on every domain besides the ones the user names. */
export const COMMON_SELECTORS = ['default', 'google', 'selector1', 'selector2', 'k1', 'k2', 's1', 's2', 'dkim', 'mail', 'smtp', 'mandrill', 'mxvault'];

type Selector = z.infer<typeof DkimSelectorResult>;

function rsaBits(base64: string): number | null {
  try {
    const key = createPublicKey({ key: Buffer.from(base64.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyDetails?.modulusLength ?? null;
  } catch {
    return null;
  }
}

async function checkSelector(dns: DnsResolver, domain: string, selector: string): Promise<Selector | null> {
  const name = `${selector}._domainkey.${domain}`;
  const record = (await dns.txt(name)).find((r) => /(^|;)\s*(v=DKIM1|p=)/i.test(r));
  if (!record) return null;
  const tags = parseTags(record);
  const keyType = (tags.k ?? 'rsa').toLowerCase();
  const findings: Finding[] = [];
  let keyBits: number | null = null;
  if (!tags.p) {
    findings.push(error(`The key at ${name} is revoked (empty p=).`, 'Publish the current public key from your sending provider, or remove the record.'));
  } else if (keyType === 'rsa') {
    keyBits = rsaBits(tags.p);
    if (keyBits === null)
      findings.push(error(`The key at ${name} is not a valid RSA public key.`, 'Copy the public key again from your provider, without spaces or quotes.'));
    else if (keyBits < 1024)
      findings.push(error(`The ${keyBits}-bit RSA key at ${name} is too short; receivers ignore keys under 1024 bits.`, 'Rotate to a 2048-bit key.'));
    else if (keyBits < 2048) findings.push(warning(`The ${keyBits}-bit RSA key at ${name} is weaker than recommended.`, 'Rotate to a 2048-bit key.'));
  } else if (keyType === 'ed25519') {
    if (Buffer.from(tags.p, 'base64').length !== 32)
      findings.push(error(`The Ed25519 key at ${name} is not 32 bytes.`, 'Copy the public key again from your provider.'));
    else keyBits = 256;
  } else {
    findings.push(error(`Unknown key type k=${keyType} at ${name}.`, 'Use k=rsa or k=ed25519.'));
  }
  return { selector, status: statusOf(findings), record, keyType, keyBits, findings };
}

/** Where to find the selector a domain really signs with, said wherever no key turned up. */
export const FIND_SELECTOR_FIX =
  'Find the selector in a message you sent (the s= tag of its DKIM-Signature header) and add it under Edit Domain. If your messages carry no DKIM-Signature, turn on DKIM signing at your email provider first.';

/** "We tried ... and found no DKIM key.", naming every selector looked up so the user can see theirs is not among them. */
export function noKeyMessage(userSelectors: string[], tried: string[]): string {
  const common = tried.filter((s) => !userSelectors.includes(s));
  const commonPart = `${common.length} common ${common.length === 1 ? 'selector' : 'selectors'} (${common.join(', ')})`;
  if (userSelectors.length === 0) return `We tried ${commonPart} and found no DKIM key.`;
  const userPart = `your ${userSelectors.length === 1 ? 'selector' : 'selectors'} ${userSelectors.join(', ')}`;
  return `We tried ${userPart}${common.length ? ` and ${commonPart}` : ''} and found no DKIM key.`;
}

/** Looks up the user's selectors and the common ones; the domain is valid when a usable key exists. */
export async function checkDkim(dns: DnsResolver, domain: string, userSelectors: string[]): Promise<z.infer<typeof DkimCheck>> {
  const triedSelectors = [...new Set([...userSelectors, ...COMMON_SELECTORS])];
  const results = await Promise.all(triedSelectors.map((s) => checkSelector(dns, domain, s)));
  const found = results.filter((r): r is Selector => r !== null);
  const findings: Finding[] = [];
  for (const s of userSelectors) {
    if (!found.some((f) => f.selector === s))
      findings.push(error(`No DKIM key at ${s}._domainkey.${domain}.`, 'Publish the key your provider gives for this selector, or remove the selector.'));
  }
  if (found.length === 0) {
    return {
      status: 'missing',
      record: null,
      findings: [...findings, error(noKeyMessage(userSelectors, triedSelectors), FIND_SELECTOR_FIX)],
      selectors: [],
      triedSelectors,
    };
  }
  const usable = found.filter((f) => f.status === 'valid');
  if (usable.length === 0) findings.push(error('None of the DKIM keys found is usable.', 'Publish a valid 2048-bit key.'));
  for (const f of found) findings.push(...f.findings);
  if (usable.length) findings.push(info(`Keys found at: ${found.map((f) => f.selector).join(', ')}.`));
  return { status: usable.length ? 'valid' : 'invalid', record: (usable[0] ?? found[0]).record, findings, selectors: found, triedSelectors };
}
