import type { z } from 'zod';
import type { DomainChecks, Finding } from '@contracts/domains';
import type { DnsResolver } from '../../platform/dns/resolver';
import { createOutboundGuard, type OutboundGuard } from '../../platform/security/outbound-address';
import { parseTags } from './tag-list';
import { error, info, statusOf, warning, withTag } from './finding';

type Checks = z.infer<typeof DomainChecks>;

/** RFC 8461 3.3: a policy is small; anything bigger is refused, not read. */
const MAX_POLICY_BYTES = 64 * 1024;
const ONE_DAY = 86_400;

/** How the policy file is fetched; tests point it at a loopback HTTPS server with its own CA. */
export interface PolicyFetchOptions {
  /** The guard the fetch goes through; tests inject one that lets their loopback server through. */
  outbound?: OutboundGuard;
  port?: number;
  ca?: string | Buffer;
  timeoutMs?: number;
}

export interface MtaStsPolicy {
  version: string | null;
  mode: string | null;
  mx: string[];
  maxAge: number | null;
}

/** The key: value lines of a policy file (RFC 8461 3.2). */
export function parseMtaStsPolicy(text: string): MtaStsPolicy {
  const policy: MtaStsPolicy = { version: null, mode: null, mx: [], maxAge: null };
  for (const line of text.split(/\r?\n/)) {
    const match = /^([a-z_]+):\s*(.*?)\s*$/i.exec(line);
    if (!match) continue;
    const [, key, value] = match;
    if (key === 'version') policy.version = value;
    else if (key === 'mode') policy.mode = value;
    else if (key === 'mx') policy.mx.push(value.toLowerCase());
    else if (key === 'max_age' && /^\d{1,10}$/.test(value)) policy.maxAge = Number(value);
  }
  return policy;
}

/** An mx: pattern matches a host exactly, or "*.example.com" matches one more label on the left. */
export function mxMatches(pattern: string, host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (!pattern.startsWith('*.')) return name === pattern;
  const suffix = pattern.slice(1);
  return name.endsWith(suffix) && !name.slice(0, -suffix.length).includes('.');
}

/** The host answered, but not with a policy: said as it is (the host is public and answered, so this tells nothing about our network). */
class PolicyAnswerError extends Error {}

/**
 * GET https://mta-sts.<domain>/.well-known/mta-sts.txt through the outbound guard: the host is
 * resolved through the product's resolver (DNS_SERVERS), refused unless every address is public,
 * and the certificate is checked against the name. No redirects (RFC 8461 3.3), a size cap, and a
 * time limit on the whole exchange.
 */
export async function fetchMtaStsPolicy(dns: DnsResolver, domain: string, options: PolicyFetchOptions = {}): Promise<string> {
  const outbound = options.outbound ?? createOutboundGuard(dns);
  const res = await outbound.fetch(`https://mta-sts.${domain}/.well-known/mta-sts.txt`, {
    headers: { 'user-agent': 'InboxPulse MTA-STS check' },
    timeoutMs: options.timeoutMs ?? 5000,
    maxBytes: MAX_POLICY_BYTES,
    ca: options.ca,
    port: options.port,
  });
  if (res.status !== 200) throw new PolicyAnswerError(`HTTP ${res.status}`);
  if (res.truncated) throw new PolicyAnswerError('the policy is larger than 64 KB');
  return res.body.toString('utf8');
}

/** MTA-STS: the _mta-sts TXT record, and the policy file it announces checked against the MX hosts. */
export async function checkMtaSts(dns: DnsResolver, domain: string, mxHosts: string[], options: PolicyFetchOptions = {}): Promise<Checks['mtaSts']> {
  const [record] = withTag(await dns.txt(`_mta-sts.${domain}`), 'v=STSv1');
  const where = `https://mta-sts.${domain}/.well-known/mta-sts.txt`;
  if (!record)
    return {
      status: 'missing',
      record: null,
      policy: null,
      findings: [info('No MTA-STS: senders may deliver to you without TLS.', `Publish _mta-sts.${domain} and a policy at ${where}.`)],
    };
  const findings: Finding[] = [];
  if (!parseTags(record).id) findings.push(error('The MTA-STS record has no id=.', 'Add id=<a value you change with every policy change>.'));
  let text: string | null = null;
  try {
    text = await fetchMtaStsPolicy(dns, domain, options);
  } catch (err) {
    // A connection that failed (refused, reset, timeout, TLS, an address that is not public) gets one
    // text whatever the cause: telling them apart would make this check a port scanner.
    const message =
      err instanceof PolicyAnswerError
        ? `The MTA-STS policy could not be fetched: ${err.message}.`
        : `The MTA-STS policy could not be fetched from mta-sts.${domain}.`;
    findings.push(error(message, `Serve it at ${where} with a valid certificate.`));
    return { status: statusOf(findings), record, policy: null, findings };
  }
  const policy = parseMtaStsPolicy(text);
  if (policy.version !== 'STSv1') findings.push(error('The MTA-STS policy does not start with "version: STSv1".', 'Make "version: STSv1" its first line.'));
  if (!policy.mode) findings.push(error('The MTA-STS policy has no mode.', 'Add "mode: enforce" (or testing).'));
  else if (policy.mode === 'testing')
    findings.push(info('MTA-STS is in testing mode: failures are reported, not enforced.', 'Switch to mode: enforce once TLS reports are clean.'));
  else if (policy.mode === 'none') findings.push(info('MTA-STS mode is none: the policy is being withdrawn.'));
  else if (policy.mode !== 'enforce') findings.push(error(`The MTA-STS mode "${policy.mode}" is not enforce, testing or none.`));
  if (policy.maxAge === null) findings.push(error('The MTA-STS policy has no max_age.', 'Add "max_age: 604800" (one week).'));
  else if (policy.maxAge < ONE_DAY)
    findings.push(warning(`max_age is ${policy.maxAge} seconds: senders forget the policy within a day.`, 'Use at least 86400, typically 604800.'));
  const unmatched = mxHosts.filter((h) => !policy.mx.some((p) => mxMatches(p, h)));
  if (policy.mode !== 'none' && unmatched.length > 0) {
    const finding = `The MTA-STS policy does not list ${unmatched.join(', ')}: ${policy.mode === 'enforce' ? 'senders that enforce it will not deliver there' : 'senders will report failures for it'}.`;
    findings.push((policy.mode === 'enforce' ? error : warning)(finding, `Add "mx: ${unmatched[0]}" (or a *.domain pattern) to the policy.`));
  }
  return { status: statusOf(findings), record, policy: text.slice(0, 10_000), findings };
}
