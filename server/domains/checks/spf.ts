import { isIPv4, isIPv6 } from 'node:net';
import type { z } from 'zod';
import type { Finding, SpfCheck, SpfNode } from '@contracts/domains';
import type { DnsResolver } from '../../platform/dns/resolver';
import { error, info, statusOf, warning, withTag } from './finding';

type SpfResult = z.infer<typeof SpfCheck>;

const LOOKUP_LIMIT = 10; // RFC 7208 section 4.6.4
const VOID_LIMIT = 2;
const MX_HOST_LIMIT = 10; // RFC 7208 section 4.6.4: at most 10 address lookups per mx
const QUERYING = new Set(['include', 'a', 'mx', 'ptr', 'exists']);

/*
 * What may follow each mechanism's name (RFC 7208 section 5): the domain-spec, the address, and the
 * IPv4 and IPv6 CIDR lengths. The lazy domain lets a macro such as %{l/} keep its slash.
 */
const DUAL_CIDR = /^(?::(?<domain>.+?))?(?:\/(?<v4>\d+))?(?:\/\/(?<v6>\d+))?$/;
const SHAPES = new Map<string, RegExp>([
  ['all', /^$/],
  ['include', /^:(?<domain>.+)$/],
  ['exists', /^:(?<domain>.+)$/],
  ['ptr', /^(?::(?<domain>.+))?$/],
  ['a', DUAL_CIDR],
  ['mx', DUAL_CIDR],
  ['ip4', /^:(?<ip>[^/]+)(?:\/(?<v4>\d+))?$/],
  ['ip6', /^:(?<ip>[^/]+)(?:\/(?<v6>\d+))?$/],
]);

interface Term {
  qualifier: string;
  name: string;
  /** As written, for messages. */
  raw: string;
  domain: string | null;
  ip: string | null;
  v4: string | null;
  v6: string | null;
}

type Counter = { lookups: number; voids: string[] };

function parseTerms(record: string): { terms: Term[]; modifiers: Record<string, string>; bad: string[] } {
  const terms: Term[] = [];
  const modifiers: Record<string, string> = {};
  const bad: string[] = [];
  for (const raw of record.trim().split(/\s+/).slice(1)) {
    const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(raw);
    if (modifier) {
      modifiers[modifier[1].toLowerCase()] = modifier[2];
      continue;
    }
    const m = /^([+\-~?]?)([a-z0-9]+)(.*)$/i.exec(raw);
    const name = m?.[2].toLowerCase() ?? '';
    const shape = m && SHAPES.get(name)?.exec(m[3]);
    if (!m || !shape) {
      bad.push(raw);
      continue;
    }
    const parts = shape.groups ?? {};
    terms.push({ qualifier: m[1] || '+', name, raw, domain: parts.domain ?? null, ip: parts.ip ?? null, v4: parts.v4 ?? null, v6: parts.v6 ?? null });
  }
  return { terms, modifiers, bad };
}

/** Why an ip4/ip6 address or a CIDR length cannot be used (RFC 7208 section 5.6), or null. */
function addressProblem(term: Term): string | null {
  if (term.name === 'ip4' && !isIPv4(term.ip ?? '')) return `"${term.ip}" is not an IPv4 address (four numbers from 0 to 255)`;
  if (term.name === 'ip6' && (!isIPv6(term.ip ?? '') || term.ip!.includes('%'))) return `"${term.ip}" is not an IPv6 address`;
  // RFC 7208 section 5.6: a length is written without leading zeros, 0-32 for IPv4 and 0-128 for IPv6.
  const outOfRange = (length: string | null, max: number) => length !== null && !(/^(0|[1-9]\d*)$/.test(length) && Number(length) <= max);
  if (outOfRange(term.v4, 32)) return `the IPv4 prefix length /${term.v4} is outside /0 to /32`;
  if (outOfRange(term.v6, 128)) return `the IPv6 prefix length /${term.v6} is outside /0 to /128`;
  return null;
}

/** A domain-spec with a macro (%{i}, %{d}, ...) names a different domain for each sender: there is nothing to look up without one. */
const hasMacro = (domain: string) => domain.includes('%');

/**
 * Checks the domain's SPF record: exactly one, valid syntax, and the RFC 7208 limits of 10
 * DNS-querying mechanisms (counted recursively through include and redirect) and 2 void lookups.
 */
export async function checkSpf(dns: DnsResolver, domain: string): Promise<SpfResult> {
  const records = withTag(await dns.txt(domain), 'v=spf1');
  if (records.length === 0) {
    return {
      status: 'missing',
      record: null,
      findings: [
        error(
          'No SPF record: receivers cannot tell which servers may send mail for this domain.',
          `Publish one TXT record at ${domain}, e.g. "v=spf1 include:_spf.google.com -all" with your provider's include.`,
        ),
      ],
      lookupCount: 0,
      voidLookupCount: 0,
      tree: null,
    };
  }
  const findings: Finding[] = [];
  if (records.length > 1) {
    findings.push(
      error(`${records.length} SPF records were found; receivers treat more than one as a permanent error.`, 'Merge them into a single v=spf1 record.'),
    );
  }
  const counter: Counter = { lookups: 0, voids: [] };
  const tree = await walk({ dns, top: domain, counter, findings }, domain, records[0], new Set([domain]), 0);

  const { terms, modifiers } = parseTerms(records[0]);
  const all = terms.find((t) => t.name === 'all');
  if (all?.qualifier === '+')
    findings.push(
      error('"+all" lets every server in the world send mail as this domain.', 'End the record with "-all" (or "~all" while you list your senders).'),
    );
  else if (all?.qualifier === '?')
    findings.push(warning('"?all" is neutral: mail from unlisted servers is neither passed nor failed.', 'End the record with "-all" or "~all".'));
  else if (all?.qualifier === '~') findings.push(info('"~all" soft-fails unlisted servers.', 'Once every sender is listed, switch to "-all".'));
  else if (!all && !modifiers.redirect)
    findings.push(warning('The record has no "all" mechanism, so unlisted servers get a neutral result.', 'End the record with "-all".'));

  if (counter.lookups > LOOKUP_LIMIT) {
    findings.push(
      error(
        `The record needs ${counter.lookups} DNS lookups; the limit is ${LOOKUP_LIMIT}, beyond which receivers return a permanent error.`,
        'Remove includes you no longer send through, or replace some with ip4:/ip6: ranges.',
      ),
    );
  }
  if (counter.voids.length > VOID_LIMIT) {
    findings.push(
      error(
        `${counter.voids.length} lookups find no records at all (void lookups): ${counter.voids.join(', ')}. The limit is ${VOID_LIMIT}, beyond which receivers return a permanent error (RFC 7208 section 4.6.4).`,
        'Remove mechanisms that point at names without records, or publish the records they expect.',
      ),
    );
  }
  return { status: statusOf(findings), record: records[0], findings, lookupCount: counter.lookups, voidLookupCount: counter.voids.length, tree };
}

/** What one evaluation of the record shares: the domain checked, the running counts and the findings. */
interface Walk {
  dns: DnsResolver;
  top: string;
  counter: Counter;
  findings: Finding[];
}

/** A term as a void-lookup list names it: the checked record's own terms plainly, an included record's with its domain. */
const where = (ctx: Walk, term: string, domain: string) => (domain === ctx.top ? term : `${term} (in ${domain})`);

const ADDRESS_FIXES: Record<string, string> = {
  ip4: 'Write it as ip4:<address> or ip4:<network>/<0-32>, e.g. "ip4:192.0.2.0/24".',
  ip6: 'Write it as ip6:<address> or ip6:<network>/<0-128>, e.g. "ip6:2001:db8::/32".',
  a: 'Use /0 to /32 for IPv4 and //0 to //128 for IPv6, e.g. "a/24" or "a//64".',
  mx: 'Use /0 to /32 for IPv4 and //0 to //128 for IPv6, e.g. "mx/24" or "mx//64".',
};

async function walk(ctx: Walk, domain: string, record: string, seen: Set<string>, depth: number): Promise<SpfNode> {
  const { dns, counter, findings } = ctx;
  const node: SpfNode = { domain, record, lookups: 0, children: [], error: null };
  const { terms, modifiers, bad } = parseTerms(record);
  for (const term of bad)
    findings.push(error(`"${term}" in the SPF record of ${domain} is not valid SPF syntax.`, 'Correct or remove it: receivers reject the whole record.'));
  for (const term of terms) {
    const problem = addressProblem(term);
    if (problem)
      findings.push(
        error(
          `"${term.raw}" in the SPF record of ${domain} is invalid: ${problem}. Receivers treat the whole record as a permanent error (RFC 7208 section 5.6).`,
          ADDRESS_FIXES[term.name],
        ),
      );
    if (!QUERYING.has(term.name)) continue;
    node.lookups++;
    counter.lookups++;
    if (term.name === 'ptr')
      findings.push(
        warning(`"ptr" in the SPF record of ${domain} is deprecated and slow; many receivers ignore it.`, 'Replace it with ip4:/ip6: ranges or includes.'),
      );
    if (term.name === 'include' && term.domain) node.children.push(await follow(ctx, 'include', term.domain, domain, seen, depth));
    const target = term.domain ?? domain;
    if ((term.name === 'a' || term.name === 'mx' || term.name === 'exists') && counter.lookups <= LOOKUP_LIMIT && !hasMacro(target)) {
      // exists asks for A records only, whatever the connection (RFC 7208 section 5.7).
      const found =
        term.name === 'mx' ? await dns.mx(target) : term.name === 'a' ? [...(await dns.a(target)), ...(await dns.aaaa(target))] : await dns.a(target);
      if (found.length === 0) counter.voids.push(where(ctx, term.raw, domain));
      if (term.name === 'mx' && found.length > MX_HOST_LIMIT)
        findings.push(
          error(
            `"${term.raw}" in the SPF record of ${domain} points at ${found.length} MX hosts; receivers look up the addresses of at most ${MX_HOST_LIMIT}, so the whole record is a permanent error (RFC 7208 section 4.6.4).`,
            `Replace "${term.raw}" with ip4:/ip6: ranges of the servers that send your mail.`,
          ),
        );
    }
  }
  if (modifiers.redirect) {
    node.lookups++;
    counter.lookups++;
    node.children.push(await follow(ctx, 'redirect', modifiers.redirect, domain, seen, depth));
  }
  return node;
}

async function follow(ctx: Walk, via: 'include' | 'redirect', target: string, from: string, seen: Set<string>, depth: number): Promise<SpfNode> {
  const name = target.toLowerCase();
  const term = via === 'include' ? `include:${name}` : `redirect=${name}`;
  if (seen.has(name) || depth >= LOOKUP_LIMIT) {
    ctx.findings.push(error(`The SPF ${via} chain loops back to ${name}.`, `Remove the circular ${via}.`));
    return { domain: name, record: null, lookups: 0, children: [], error: `${via} loop` };
  }
  const txt = await ctx.dns.txt(name);
  const records = withTag(txt, 'v=spf1');
  if (records.length === 0) {
    // A void lookup is an answer with no records (RFC 7208 section 4.6.4): TXT records that are not SPF are still an answer.
    if (txt.length === 0) ctx.counter.voids.push(where(ctx, term, from));
    ctx.findings.push(
      error(
        `The ${via} "${name}" has no SPF record${txt.length ? ' (it has TXT records, but none starts with v=spf1)' : ''}, which is a permanent error for receivers (RFC 7208 section ${via === 'include' ? '5.2' : '6.1'}).`,
        via === 'include' ? `Remove include:${name} or fix the name.` : `Point redirect= at a domain that publishes an SPF record, or fix the name.`,
      ),
    );
    return { domain: name, record: null, lookups: 0, children: [], error: 'no SPF record' };
  }
  return walk(ctx, name, records[0], new Set([...seen, name]), depth + 1);
}
