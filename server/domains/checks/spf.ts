import type { z } from 'zod';
import type { Finding, SpfCheck, SpfNode } from '@contracts/domains';
import type { DnsResolver } from '../../platform/dns/resolver';
import { error, info, statusOf, warning, withTag } from './finding';

type SpfResult = z.infer<typeof SpfCheck>;

const LOOKUP_LIMIT = 10; // RFC 7208 section 4.6.4
const VOID_LIMIT = 2;
const MECHANISMS = new Set(['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists']);
const QUERYING = new Set(['include', 'a', 'mx', 'ptr', 'exists']);

interface Term {
  qualifier: string;
  name: string;
  value: string | null;
}

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
    const m = /^([+\-~?]?)([a-z0-9]+)(?:[:/](.*))?$/i.exec(raw);
    if (!m || !MECHANISMS.has(m[2].toLowerCase())) {
      bad.push(raw);
      continue;
    }
    terms.push({ qualifier: m[1] || '+', name: m[2].toLowerCase(), value: m[3] ?? null });
  }
  return { terms, modifiers, bad };
}

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
  const counter = { lookups: 0, voids: 0 };
  const tree = await walk(dns, domain, records[0], counter, findings, new Set([domain]), 0);

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
  if (counter.voids > VOID_LIMIT) {
    findings.push(error(`${counter.voids} lookups return nothing; the limit is ${VOID_LIMIT}.`, 'Remove mechanisms that point at names without records.'));
  }
  return { status: statusOf(findings), record: records[0], findings, lookupCount: counter.lookups, voidLookupCount: counter.voids, tree };
}

async function walk(
  dns: DnsResolver,
  domain: string,
  record: string,
  counter: { lookups: number; voids: number },
  findings: Finding[],
  seen: Set<string>,
  depth: number,
): Promise<SpfNode> {
  const node: SpfNode = { domain, record, lookups: 0, children: [], error: null };
  const { terms, modifiers, bad } = parseTerms(record);
  for (const term of bad)
    findings.push(error(`"${term}" in the SPF record of ${domain} is not valid SPF syntax.`, 'Correct or remove it: receivers reject the whole record.'));
  for (const term of terms) {
    if (!QUERYING.has(term.name)) continue;
    node.lookups++;
    counter.lookups++;
    if (term.name === 'ptr')
      findings.push(
        warning(`"ptr" in the SPF record of ${domain} is deprecated and slow; many receivers ignore it.`, 'Replace it with ip4:/ip6: ranges or includes.'),
      );
    if (term.name === 'include' && term.value) node.children.push(await follow(dns, term.value, counter, findings, seen, depth));
    if ((term.name === 'a' || term.name === 'mx') && counter.lookups <= LOOKUP_LIMIT) {
      const target = term.value?.split('/')[0] || domain;
      const found = term.name === 'a' ? [...(await dns.a(target)), ...(await dns.aaaa(target))] : await dns.mx(target);
      if (found.length === 0) counter.voids++;
    }
  }
  if (modifiers.redirect) {
    node.lookups++;
    counter.lookups++;
    node.children.push(await follow(dns, modifiers.redirect, counter, findings, seen, depth));
  }
  return node;
}

async function follow(
  dns: DnsResolver,
  target: string,
  counter: { lookups: number; voids: number },
  findings: Finding[],
  seen: Set<string>,
  depth: number,
): Promise<SpfNode> {
  const name = target.toLowerCase();
  if (seen.has(name) || depth >= LOOKUP_LIMIT) {
    findings.push(error(`The SPF include chain loops back to ${name}.`, 'Remove the circular include.'));
    return { domain: name, record: null, lookups: 0, children: [], error: 'include loop' };
  }
  const records = withTag(await dns.txt(name), 'v=spf1');
  if (records.length === 0) {
    counter.voids++;
    findings.push(error(`The include "${name}" has no SPF record, which is a permanent error for receivers.`, `Remove include:${name} or fix the name.`));
    return { domain: name, record: null, lookups: 0, children: [], error: 'no SPF record' };
  }
  return walk(dns, name, records[0], counter, findings, new Set([...seen, name]), depth + 1);
}
