import type { z } from 'zod';
import {
  COMMON_DKIM_SELECTORS,
  type DkimCheck,
  type DkimSelectorResult,
  type DomainChecks,
  type Finding,
} from '@contracts/domains';
import { DnsLookupError, type DnsResolver } from '../../platform/dns/resolver';
import { discardedRecordFinding, kindOfRecord, readKeyRecord } from './dkim-key-record';
import { checkOf, error, info, statusOf, warning } from './finding';
import { excerpt } from './tag-list';

type Selector = z.infer<typeof DkimSelectorResult>;

/** One selector looked up: its key records read, no key (with the other TXT records found there), or a lookup that failed. */
type SelectorOutcome = { selector: string } & ({ result: Selector } | { noKey: string[] } | { failed: DnsLookupError });

const quoted = (records: string[]) => records.map((r) => `"${excerpt(r, 40)}"`).join(', ');

async function checkSelector(dns: DnsResolver, domain: string, selector: string): Promise<SelectorOutcome> {
  const name = `${selector}._domainkey.${domain}`;
  let records: string[];
  try {
    records = await dns.txt(name);
  } catch (err) {
    if (err instanceof DnsLookupError) return { selector, failed: err };
    throw err;
  }
  const kinds = records.map((record) => ({ record, ...kindOfRecord(record) }));
  const keys = kinds.filter((r) => r.kind === 'key').map((r) => r.record);
  const others = kinds.filter((r) => r.kind !== 'key').map((r) => r.record);
  if (keys.length === 0) {
    // A discarded record that was meant as a key (v=dkim1, v=DKIM1 without its ";") is said; any other record is no
    // key.
    const meantAsKeys = kinds.flatMap((r) => (r.kind === 'discarded' && /^dkim/i.test(r.version) ? [r.version] : []));
    if (meantAsKeys.length === 0) return { selector, noKey: records };
    const findings = meantAsKeys.map((version) => discardedRecordFinding(name, version));
    return { selector, result: { selector, status: 'invalid', record: null, keyType: null, keyBits: null, findings } };
  }
  // Verifiers read one record (RFC 6376 section 6.1.2 step 4): the first of several is read, and the others are a
  // finding.
  const reading = readKeyRecord(name, domain, keys[0]);
  const findings: Finding[] = [];
  if (keys.length > 1)
    findings.push(
      error(
        `${name} has ${keys.length} DKIM key records; a selector may have only one (RFC 6376 section 3.6.2.2): verifiers pick one of them or reject them all, so signatures fail unpredictably.`,
        'Keep only the record of the key your mail is signed with.',
      ),
    );
  findings.push(...reading.findings);
  // Even a record verifiers discard breaks some of them: OpenDKIM refuses several answers, and others read only the
  // first.
  if (others.length)
    findings.push(
      error(
        `${name} also has ${others.length === 1 ? 'another TXT record' : `${others.length} other TXT records`} (${quoted(others)}); a selector may have only its key record (RFC 6376 section 3.6.2.2): OpenDKIM rejects the key, and verifiers that read only the first answer fail whenever the other record comes first.`,
        `Remove the other TXT records at ${name}.`,
      ),
    );
  return {
    selector,
    result: {
      selector,
      status: statusOf(findings),
      record: keys[0],
      keyType: reading.keyType,
      keyBits: reading.keyBits,
      findings,
    },
  };
}

/** Where to find the selector a domain really signs with, said wherever no key turned up. */
export const FIND_SELECTOR_FIX =
  'Find the selector in a message you sent (the s= tag of its DKIM-Signature header) and add it under Edit Domain. If your messages carry no DKIM-Signature, turn on DKIM signing at your email provider first.';

const RETRY_FIX =
  'This is usually temporary, and we check again every hour. If it lasts, ask your DNS host why this name does not answer.';

/** "We tried ... and found no DKIM key.", naming every selector looked up so the user can see theirs is not among them. */
export function noKeyMessage(userSelectors: string[], tried: string[]): string {
  const common = tried.filter((s) => !userSelectors.includes(s));
  const commonPart = `${common.length} common ${common.length === 1 ? 'selector' : 'selectors'} (${common.join(', ')})`;
  if (userSelectors.length === 0) return `We tried ${commonPart} and found no DKIM key.`;
  const userPart = `your ${userSelectors.length === 1 ? 'selector' : 'selectors'} ${userSelectors.join(', ')}`;
  return `We tried ${userPart}${common.length ? ` and ${commonPart}` : ''} and found no DKIM key.`;
}

const codesOf = (failures: DnsLookupError[]) => [...new Set(failures.map((f) => f.code))].join(', ');

/**
 * Looks up the user's selectors and the common ones; the domain is valid when a usable key exists.
 * A lookup that fails (SERVFAIL, timeout) is a finding on its selector, never a failed check: only
 * when every selector that matters failed (the user's, or all common ones when the user named none)
 * and no key turned up does the check say it could not be completed.
 */
export async function checkDkim(
  dns: DnsResolver,
  domain: string,
  userSelectors: string[],
  lastKnown?: Pick<DomainChecks, 'checkedAt' | 'dkim'> | null,
): Promise<z.infer<typeof DkimCheck>> {
  const triedSelectors = [...new Set([...userSelectors, ...COMMON_DKIM_SELECTORS])];
  const outcomes = await Promise.all(triedSelectors.map((s) => checkSelector(dns, domain, s)));
  const failed = outcomes.flatMap((o) => ('failed' in o ? [{ selector: o.selector, error: o.failed }] : []));
  // A selector that did not answer keeps the key an earlier check found there (marked with when),
  // so one SERVFAIL is neither a key removed nor a domain whose DKIM suddenly fails.
  const carried = failed.flatMap(({ selector }) => {
    const known = lastKnown?.dkim.selectors.find((s) => s.selector === selector);
    return known ? [{ ...known, lastFoundAt: known.lastFoundAt ?? lastKnown!.checkedAt }] : [];
  });
  const found = [...outcomes.flatMap((o) => ('result' in o ? [o.result] : [])), ...carried];
  const uncheckedSelectors = failed.map((f) => f.selector);
  const base = { selectors: found, triedSelectors, uncheckedSelectors };

  const mine = userSelectors.length ? userSelectors : triedSelectors;
  if (found.length === 0 && mine.every((s) => uncheckedSelectors.includes(s))) {
    const what = userSelectors.length
      ? `your ${mine.length === 1 ? 'selector' : 'selectors'} ${mine.join(', ')}`
      : `all ${mine.length} common selectors`;
    const failures = failed.filter((f) => mine.includes(f.selector)).map((f) => f.error);
    return {
      ...base,
      status: 'invalid',
      record: null,
      findings: [
        error(
          `The DKIM check of ${domain} could not be completed: the DNS lookups of ${what} failed (${codesOf(failures)}).`,
          `We check again every hour. If it lasts, ask your DNS host why names under _domainkey.${domain} do not answer.`,
        ),
      ],
    };
  }

  const usable = found.filter((f) => f.status === 'valid');
  const findings: Finding[] = [];
  for (const s of userSelectors) {
    const outcome = outcomes.find((o) => o.selector === s)!;
    const name = `${s}._domainkey.${domain}`;
    if ('failed' in outcome) {
      const kept = carried.find((c) => c.selector === s);
      const shown = kept ? `; the key shown is the one found at ${checkOf(kept.lastFoundAt)}` : '';
      findings.push(
        warning(`${name} could not be checked: the DNS lookup failed (${outcome.failed.code})${shown}.`, RETRY_FIX),
      );
    }
    if ('noKey' in outcome) {
      const records = outcome.noKey;
      const reason = records.length
        ? `: its TXT ${records.length === 1 ? 'record' : 'records'} ${quoted(records)} ${records.length === 1 ? 'is' : 'are'} not a DKIM key`
        : '';
      findings.push(
        error(
          `No DKIM key at ${name}${reason}.`,
          'Publish the key your provider gives for this selector, or remove the selector.',
        ),
      );
    }
  }
  const commonFailed = failed.filter((f) => !userSelectors.includes(f.selector));
  if (commonFailed.length) {
    const one = commonFailed.length === 1;
    const message = `${commonFailed.length} common ${one ? 'selector' : 'selectors'} could not be checked (${commonFailed.map((f) => f.selector).join(', ')}): the DNS ${one ? 'lookup' : 'lookups'} failed (${codesOf(commonFailed.map((f) => f.error))}).`;
    // Where a usable key was found, a guess that did not answer changes nothing.
    findings.push(usable.length ? info(message) : warning(message, RETRY_FIX));
  }

  if (found.length === 0) {
    return {
      ...base,
      status: 'missing',
      record: null,
      findings: [...findings, error(noKeyMessage(userSelectors, triedSelectors), FIND_SELECTOR_FIX)],
    };
  }
  if (usable.length === 0)
    findings.push(error('None of the DKIM keys found is usable.', 'Publish a valid 2048-bit key.'));
  for (const f of found) findings.push(...f.findings);
  if (usable.length) findings.push(info(`Keys found at: ${found.map((f) => f.selector).join(', ')}.`));
  return { ...base, status: usable.length ? 'valid' : 'invalid', record: (usable[0] ?? found[0]).record, findings };
}
