import type { z } from 'zod';
import type { DomainChecks, Finding } from '@contracts/domains';
import type { DnsResolver } from '../../platform/dns/resolver';
import { fetchUrl, type FetchOptions } from './fetch-url';
import { error, info, statusOf, warning } from './finding';
import { fieldValue, findRecord, lookupRecords, readFields, type RecordKind } from './versioned-record';

type Checks = z.infer<typeof DomainChecks>;

const MTA_STS: RecordKind = {
  name: 'MTA-STS',
  version: 'v=STSv1',
  readers: 'senders',
  lost: 'your MTA-STS policy is not applied',
};

/** RFC 8461 3.3: a policy is small; anything bigger is refused, not read. */
const MAX_POLICY_BYTES = 64 * 1024;
/** RFC 8461 3.2: max_age is "plaintext non-negative integer seconds, maximum value of 31557600". */
const MAX_AGE_LIMIT = 31_557_600;
const ONE_DAY = 86_400;
/** RFC 8461 3.1: sts-id = 1*32(ALPHA / DIGIT). */
const STS_ID = /^[A-Za-z0-9]{1,32}$/;
/** RFC 8461 3.2: sts-policy-mx-value = ["*."] Domain (RFC 5321 4.1.2: labels of letters, digits and inner dashes). */
const MX_PATTERN = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;
/** RFC 8461 3.2: a policy line is sts-policy-ext-name ":" *WSP value, white space after it allowed. */
const POLICY_LINE = /^([A-Za-z0-9][A-Za-z0-9_.-]{0,31}):[ \t]*(.*?)[ \t]*$/;
const SINGLE_FIELDS = ['version', 'mode', 'max_age'] as const;

export interface MtaStsPolicy {
  version: string | null;
  mode: string | null;
  mx: string[];
  /** As written: whether it is a number of seconds within the limit is the check's to say. */
  maxAge: string | null;
  /** Fields other than mx written more than once: senders use the first (RFC 8461 3.2). */
  repeated: string[];
  /** Lines that are not "name: value". */
  malformed: string[];
}

/** The key: value lines of a policy file (RFC 8461 3.2): field names are case-sensitive, unknown fields ignored. */
export function parseMtaStsPolicy(text: string): MtaStsPolicy {
  const policy: MtaStsPolicy = { version: null, mode: null, mx: [], maxAge: null, repeated: [], malformed: [] };
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue; // the file's final line break leaves one
    const match = POLICY_LINE.exec(line);
    if (!match) {
      policy.malformed.push(line);
      continue;
    }
    const [, name, value] = match;
    if (name === 'mx') policy.mx.push(value.toLowerCase());
    else if (seen.has(name)) {
      if (SINGLE_FIELDS.some((field) => field === name) && !policy.repeated.includes(name)) policy.repeated.push(name);
    } else {
      seen.add(name);
      if (name === 'version') policy.version = value;
      else if (name === 'mode') policy.mode = value;
      else if (name === 'max_age') policy.maxAge = value;
    }
  }
  return policy;
}

/** RFC 8461 4.1: an mx: pattern matches a host exactly, or "*.example.com" matches one more label on the left. */
export function mxMatches(pattern: string, host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (!pattern.startsWith('*.')) return name === pattern;
  const suffix = pattern.slice(1);
  return name.endsWith(suffix) && !name.slice(0, -suffix.length).includes('.');
}

/** MTA-STS: the _mta-sts TXT record (RFC 8461 3.1), and the policy file it announces (3.2, 3.3) checked against the MX hosts. */
export async function checkMtaSts(
  dns: DnsResolver,
  domain: string,
  mxHosts: string[],
  options: FetchOptions = {},
): Promise<Checks['mtaSts']> {
  const name = `_mta-sts.${domain}`;
  const where = `https://mta-sts.${domain}/.well-known/mta-sts.txt`;
  const txt = await lookupRecords(dns, name, domain, MTA_STS);
  if (!Array.isArray(txt)) return { status: 'invalid', record: null, policy: null, findings: [txt] };
  const { record, findings } = findRecord(txt, name, MTA_STS);
  if (!record)
    return {
      status: 'missing',
      record: null,
      policy: null,
      findings: [
        info(
          'No MTA-STS: senders may deliver to you without TLS.',
          `Publish _mta-sts.${domain} and a policy at ${where}.`,
        ),
      ],
    };
  const { fields, problems } = readFields(record, MTA_STS, ['id']);
  findings.push(...problems);
  const id = fieldValue(fields, 'id');
  if (id === undefined)
    findings.push(
      error(
        'The MTA-STS record has no id=, so senders ignore it.',
        'Add id= with letters and digits you change at every policy change, such as the date of the change: id=20240131.',
      ),
    );
  else if (!STS_ID.test(id))
    findings.push(
      error(
        `id=${id} is not 1 to 32 letters and digits, so senders ignore the record.`,
        `Use letters and digits only, e.g. id=${id.replace(/[^A-Za-z0-9]/g, '').slice(0, 32) || '20240131'}, and change it with every policy change.`,
      ),
    );

  // The policy is fetched even when the record has problems: its owner sees every problem at once.
  const fetched = await fetchUrl(dns, where, MAX_POLICY_BYTES, 'InboxPulse MTA-STS check', options);
  if ('problem' in fetched) {
    findings.push(
      error(
        `The MTA-STS policy ${fetched.problem}.`,
        `Serve the policy at ${where} itself, with HTTP 200 and a certificate valid for mta-sts.${domain}.`,
      ),
    );
    return { status: statusOf(findings), record, policy: null, findings };
  }
  // RFC 8461 3.2: senders SHOULD check the media type, so that a page a web server lets anyone upload is never taken
  // for a policy.
  if (fetched.mediaType !== 'text/plain')
    findings.push(
      error(
        `The MTA-STS policy is served as ${fetched.mediaType ?? 'a file without a Content-Type'}, not text/plain, so senders that check the media type ignore it.`,
        'Serve mta-sts.txt with "Content-Type: text/plain".',
      ),
    );
  const text = fetched.body.toString('utf8');
  findings.push(...policyFindings(parseMtaStsPolicy(text), domain, mxHosts));
  return { status: statusOf(findings), record, policy: text.slice(0, 10_000), findings };
}

/** What RFC 8461 3.2 asks of a policy file, and whether it covers the domain's MX hosts (4.1). */
function policyFindings(policy: MtaStsPolicy, domain: string, mxHosts: string[]): Finding[] {
  const findings: Finding[] = [];
  for (const line of policy.malformed)
    findings.push(
      error(
        `The policy line "${line}" is not "name: value", so senders may reject the policy.`,
        'Write it as "name: value", e.g. "mode: enforce", or remove it.',
      ),
    );
  const written = { version: policy.version, mode: policy.mode, max_age: policy.maxAge };
  for (const field of policy.repeated)
    findings.push(
      warning(
        `The policy gives ${field} more than once; senders use the first (${field}: ${written[field as keyof typeof written]}).`,
        `Keep one ${field}: line.`,
      ),
    );

  if (policy.version === null)
    findings.push(error('The MTA-STS policy has no "version: STSv1" line.', 'Add "version: STSv1" as its first line.'));
  else if (policy.version !== 'STSv1')
    findings.push(
      error(
        `The MTA-STS policy says "version: ${policy.version}"; the only version is STSv1.`,
        'Write "version: STSv1".',
      ),
    );

  if (!policy.mode) findings.push(error('The MTA-STS policy has no mode.', 'Add "mode: enforce" (or testing).'));
  else if (policy.mode === 'testing')
    findings.push(
      info(
        'MTA-STS is in testing mode: failures are reported, not enforced.',
        'Switch to mode: enforce once TLS reports are clean.',
      ),
    );
  else if (policy.mode === 'none') findings.push(info('MTA-STS mode is none: the policy is being withdrawn.'));
  else if (policy.mode !== 'enforce')
    findings.push(error(`The MTA-STS mode "${policy.mode}" is not enforce, testing or none.`));

  if (policy.maxAge === null)
    findings.push(error('The MTA-STS policy has no max_age.', 'Add "max_age: 604800" (one week).'));
  else if (!/^\d{1,10}$/.test(policy.maxAge))
    findings.push(
      error(
        `max_age "${policy.maxAge}" is not a whole number of seconds, so senders reject the policy.`,
        'Write max_age in seconds, e.g. "max_age: 604800" (one week).',
      ),
    );
  else if (Number(policy.maxAge) > MAX_AGE_LIMIT)
    findings.push(
      error(
        `max_age is ${policy.maxAge} seconds, above the ${MAX_AGE_LIMIT} (one year) RFC 8461 allows, so senders may reject the policy.`,
        `Use at most ${MAX_AGE_LIMIT}; 604800 (one week) to ${MAX_AGE_LIMIT} are usual.`,
      ),
    );
  else if (Number(policy.maxAge) < ONE_DAY)
    findings.push(
      warning(
        `max_age is ${policy.maxAge} seconds: senders forget the policy within a day.`,
        'Use at least 86400, typically 604800.',
      ),
    );

  const example = mxHosts[0] ?? `mail.${domain}`;
  for (const pattern of policy.mx.filter((p) => !MX_PATTERN.test(p)))
    findings.push(
      error(
        `"mx: ${pattern}" is not a host name or a "*.domain" pattern, so it matches no MX host.`,
        `Write a host name without a trailing dot, e.g. "mx: ${example}", or a pattern such as "mx: *.${domain}".`,
      ),
    );
  if (policy.mode === 'none') return findings;
  if (policy.mx.length === 0) {
    if (policy.mode === 'enforce' || policy.mode === 'testing')
      findings.push(
        error(
          `The MTA-STS policy has mode ${policy.mode} but no mx: line, so senders that apply it accept no MX host.`,
          `Add a line "mx: ${example}" for each MX host (or one "*.domain" pattern covering them).`,
        ),
      );
    return findings;
  }
  const unmatched = mxHosts.filter((h) => !policy.mx.some((p) => mxMatches(p, h)));
  if (unmatched.length > 0) {
    const finding = `The MTA-STS policy does not list ${unmatched.join(', ')}: ${policy.mode === 'enforce' ? 'senders that enforce it will not deliver there' : 'senders will report failures for it'}.`;
    findings.push(
      (policy.mode === 'enforce' ? error : warning)(
        finding,
        `Add "mx: ${unmatched[0]}" (or a *.domain pattern) to the policy.`,
      ),
    );
  }
  return findings;
}
