import type { Finding, SpfNode, SpfTerm } from '@contracts/domains';
import { DnsLookupError, type DnsResolver } from '../../platform/dns/resolver';
import { error, warning, withTag } from './finding';
import { expandMacroString, missingLetters, targetName, unqueryableName, type MacroString } from './spf-macro';
import { parseRecord, type Mechanism, type Modifier } from './spf-terms';

/*
 * The static evaluation of an SPF record: its terms in RFC 7208's processing order (4.6), each
 * counted as a receiver counts it (4.6.4) for an IPv4 and an IPv6 sender, through include and
 * redirect, with no message at hand: a name built from the sender is counted, not looked up.
 */

export const LOOKUP_LIMIT = 10; // RFC 7208 section 4.6.4
const MX_HOST_LIMIT = 10; // 4.6.4: at most 10 address lookups per mx
const QUERYING = new Set(['include', 'a', 'mx', 'ptr', 'exists']);

/** One evaluation of the checked domain's record: the running counts and what was found. */
export interface Walk {
  dns: DnsResolver;
  /** The checked domain, which is also the sender's domain: %{o} through every include and redirect. */
  top: string;
  findings: Finding[];
  lookups: number;
  /** The terms whose lookups find nothing, as the findings name them, for each kind of sender. */
  voids: { ipv4: string[]; ipv6: string[] };
  /** Terms whose names are built from the sender (%{i}, %{s}, ...), as the findings name them. */
  senderTerms: string[];
}

export const newWalk = (dns: DnsResolver, domain: string): Walk => ({
  dns,
  top: domain,
  findings: [],
  lookups: 0,
  voids: { ipv4: [], ipv6: [] },
  senderTerms: [],
});

const NEVER_EVALUATED = 'Never evaluated: it comes after "all" (RFC 7208 section 5.1).';
const REDIRECT_IGNORED = 'Ignored: the record has "all", so redirect= never applies (RFC 7208 section 6.1).';
const PAST_LIMIT = `Not looked up: receivers stop with a permanent error at the ${LOOKUP_LIMIT}-lookup limit before this term.`;
const PTR_NOTE = "Looks up the sending IP's reverse DNS (PTR) at each evaluation.";
const EXP_NOTE = 'Looked up only to explain a fail, and not counted (RFC 7208 section 4.6.4).';
const UNKNOWN_MODIFIER = 'Unknown modifier: receivers ignore it (RFC 7208 section 6).';

/** A term as a finding names it: the checked record's own terms plainly, an included record's with its domain. */
const where = (w: Walk, term: string, domain: string) => (domain === w.top ? term : `${term} (in ${domain})`);

const quoted = (terms: string[]) => terms.map((t) => `"${t}"`).join(', ');

const failure = (err: DnsLookupError) =>
  err.code === 'ETIMEOUT' ? 'timed out' : `failed (${err.code.replace(/^E/, '')})`;

/**
 * Runs the lookups of one term; a lookup that fails (SERVFAIL, timeout) is a finding on that term,
 * and null, so the check goes on (a receiver would return temperror for this term).
 */
async function attempt<T>(
  w: Walk,
  term: string,
  domain: string,
  name: string,
  query: () => Promise<T>,
): Promise<T | { failed: string }> {
  try {
    return await query();
  } catch (err) {
    if (!(err instanceof DnsLookupError)) throw err;
    w.findings.push(
      warning(
        `"${term}" in the SPF record of ${domain} could not be checked: the DNS lookup of ${err.rrtype} ${name} ${failure(err)}.`,
        `Receivers get a temporary error (temperror) for mail that reaches this term while the lookup fails. Check that the DNS servers of ${name} answer, then verify again.`,
      ),
    );
    return { failed: `Could not be checked: the lookup of ${err.rrtype} ${name} ${failure(err)}.` };
  }
}

const failed = (value: unknown): value is { failed: string } =>
  typeof value === 'object' && value !== null && 'failed' in value;

/** The name a domain-spec names here, or the note saying why it is not looked up. */
function target(w: Walk, raw: string, spec: MacroString | null, domain: string): { name: string } | { note: string } {
  if (!spec) return { name: domain };
  const known = { d: domain, o: w.top };
  const missing = missingLetters(spec, known);
  if (missing.length > 0) {
    w.senderTerms.push(where(w, raw, domain));
    return {
      note: `Depends on the sender: the name is built from ${missing.map((l) => `%{${l}}`).join(', ')} for each message; it counts one lookup.`,
    };
  }
  const name = targetName(expandMacroString(spec, known)).toLowerCase();
  const problem = unqueryableName(name);
  if (!problem) return { name };
  w.findings.push(
    error(
      `"${raw}" in the SPF record of ${domain} names a domain that cannot be looked up: ${problem}. RFC 7208 leaves the result undefined (section 4.8): some receivers return a permanent error for the whole record, others skip the term.`,
      `Correct the domain in "${raw}".`,
    ),
  );
  return { note: `Cannot be looked up: ${problem}.` };
}

/** Adds the term to the void lists of the senders for which its lookup found nothing. */
function countVoid(w: Walk, label: string, ipv4: boolean, ipv6: boolean) {
  if (ipv4) w.voids.ipv4.push(label);
  if (ipv6) w.voids.ipv6.push(label);
}

async function evaluateMechanism(
  w: Walk,
  node: SpfNode,
  term: Mechanism,
  domain: string,
  seen: Set<string>,
  depth: number,
): Promise<string | null> {
  if (!QUERYING.has(term.name)) return null;
  w.lookups++;
  node.lookups++;
  if (term.name === 'ptr') {
    w.findings.push(
      warning(
        `"ptr" in the SPF record of ${domain} is deprecated and slow; many receivers ignore it.`,
        'Replace it with ip4:/ip6: ranges or includes.',
      ),
    );
    return PTR_NOTE;
  }
  const named = target(w, term.raw, term.domain, domain);
  if ('note' in named) return named.note;
  const { name } = named;
  const label = where(w, term.raw, domain);
  if (term.name === 'include') {
    const followed = await follow(w, 'include', term.raw, name, domain, seen, depth);
    node.children.push(followed.node);
    return followed.note;
  }
  // Past the limit a receiver has stopped already: what these names hold no longer matters.
  if (w.lookups > LOOKUP_LIMIT) return PAST_LIMIT;
  if (term.name === 'exists') {
    // exists asks for A records whatever the connection (RFC 7208 section 5.7).
    const found = await attempt(w, term.raw, domain, name, () => w.dns.a(name));
    if (failed(found)) return found.failed;
    countVoid(w, label, found.length === 0, found.length === 0);
    return null;
  }
  if (term.name === 'a') return addressLookup(w, term.raw, domain, name, label);
  const hosts = await attempt(w, term.raw, domain, name, () => w.dns.mx(name));
  if (failed(hosts)) return hosts.failed;
  countVoid(w, label, hosts.length === 0, hosts.length === 0);
  if (hosts.length > MX_HOST_LIMIT) {
    w.findings.push(
      error(
        `"${term.raw}" in the SPF record of ${domain} points at ${hosts.length} MX hosts; receivers look up the addresses of at most ${MX_HOST_LIMIT}, so the whole record is a permanent error (RFC 7208 section 4.6.4).`,
        `Replace "${term.raw}" with ip4:/ip6: ranges of the servers that send your mail.`,
      ),
    );
    return null;
  }
  // A null MX ("." , RFC 7505) names no host to look up.
  const hostNames = hosts.map((h) => h.exchange.replace(/\.$/, '').toLowerCase()).filter(Boolean);
  const notes = await Promise.all(
    hostNames.map((host) =>
      addressLookup(w, term.raw, domain, host, where(w, `${term.raw} (MX host ${host})`, domain)),
    ),
  );
  return notes.find((n) => n !== null) ?? null;
}

/** An a mechanism's lookup (or an mx host's): A records for an IPv4 sender, AAAA for an IPv6 sender (5.3). */
async function addressLookup(
  w: Walk,
  raw: string,
  domain: string,
  name: string,
  label: string,
): Promise<string | null> {
  const found = await attempt(w, raw, domain, name, () => Promise.all([w.dns.a(name), w.dns.aaaa(name)]));
  if (failed(found)) return found.failed;
  countVoid(w, label, found[0].length === 0, found[1].length === 0);
  return null;
}

async function evaluateRedirect(
  w: Walk,
  node: SpfNode,
  term: Modifier,
  domain: string,
  seen: Set<string>,
  depth: number,
): Promise<string | null> {
  w.lookups++;
  node.lookups++;
  const named = target(w, term.raw, term.domain, domain);
  if ('note' in named) return named.note;
  const followed = await follow(w, 'redirect', term.raw, named.name, domain, seen, depth);
  node.children.push(followed.node);
  return followed.note;
}

const counts = (w: Walk) => ({ lookups: w.lookups, voids: w.voids.ipv4.length, voidsIpv6: w.voids.ipv6.length });

/** Runs one term's evaluation, and returns it with the lookups and void lookups it cost. */
async function measured(w: Walk, term: string, evaluate: () => Promise<string | null>): Promise<SpfTerm> {
  const before = counts(w);
  const note = await evaluate();
  const after = counts(w);
  return {
    term,
    lookups: after.lookups - before.lookups,
    voids: after.voids - before.voids,
    voidsIpv6: after.voidsIpv6 - before.voidsIpv6,
    note,
  };
}

/** A term that costs nothing: not evaluated, or needing no DNS. */
const idle = (term: string, note: string | null): SpfTerm => ({ term, lookups: 0, voids: 0, voidsIpv6: 0, note });

/** Walks one record's terms in evaluation order; the node lists each term with what it costs. */
export async function walkRecord(
  w: Walk,
  domain: string,
  record: string,
  seen: Set<string>,
  depth: number,
): Promise<SpfNode> {
  const node: SpfNode = { domain, record, lookups: 0, children: [], error: null, terms: [] };
  const { terms, problems } = parseRecord(record);
  for (const p of problems)
    w.findings.push(
      error(
        `"${p.raw}" in the SPF record of ${domain} is invalid: ${p.problem}. Receivers treat the whole record as a permanent error (RFC 7208 section ${p.section}).`,
        p.fix,
      ),
    );
  const hasAll = terms.some((t) => t.kind === 'mechanism' && t.name === 'all');
  const entries: SpfTerm[] = [];
  const afterAll: string[] = [];
  let pastAll = false;
  let redirect: { term: Modifier; at: number } | null = null;
  for (const term of terms) {
    if (term.kind === 'modifier') {
      // 6.1: redirect applies once no mechanism matched, wherever it is written, so it is evaluated last.
      if (term.name === 'redirect' && !hasAll) redirect = { term, at: entries.length };
      entries.push(
        idle(
          term.raw,
          term.name === 'redirect'
            ? hasAll
              ? REDIRECT_IGNORED
              : null
            : term.name === 'exp'
              ? EXP_NOTE
              : UNKNOWN_MODIFIER,
        ),
      );
    } else if (pastAll) {
      afterAll.push(term.raw);
      entries.push(idle(term.raw, NEVER_EVALUATED));
    } else {
      entries.push(await measured(w, term.raw, () => evaluateMechanism(w, node, term, domain, seen, depth)));
      pastAll = term.name === 'all';
    }
  }
  if (redirect) {
    const { term, at } = redirect;
    entries[at] = await measured(w, term.raw, () => evaluateRedirect(w, node, term, domain, seen, depth));
  }
  node.terms = entries;
  if (afterAll.length > 0)
    w.findings.push(
      warning(
        `${quoted(afterAll)} in the SPF record of ${domain} ${afterAll.length === 1 ? 'comes' : 'come'} after "all", so receivers never evaluate ${afterAll.length === 1 ? 'it' : 'them'} (RFC 7208 section 5.1).`,
        `Move ${afterAll.length === 1 ? 'it' : 'them'} before "all" if those servers send your mail, or remove ${afterAll.length === 1 ? 'it' : 'them'}.`,
      ),
    );
  const ignored = hasAll ? terms.find((t) => t.kind === 'modifier' && t.name === 'redirect') : undefined;
  if (ignored)
    w.findings.push(
      warning(
        `"${ignored.raw}" in the SPF record of ${domain} is ignored: a record with "all" never follows redirect= (RFC 7208 section 6.1).`,
        `Remove "all" to hand the evaluation over with "${ignored.raw}", or remove "${ignored.raw}".`,
      ),
    );
  return node;
}

/** Follows an include or redirect to the record it names; the node says why it stops there when it does. */
async function follow(
  w: Walk,
  via: 'include' | 'redirect',
  raw: string,
  name: string,
  from: string,
  seen: Set<string>,
  depth: number,
): Promise<{ node: SpfNode; note: string | null }> {
  const stop = (nodeError: string, note: string | null = null) => ({
    node: { domain: name, record: null, lookups: 0, children: [], error: nodeError },
    note,
  });
  if (seen.has(name) || depth >= LOOKUP_LIMIT) {
    w.findings.push(error(`The SPF ${via} chain loops back to ${name}.`, `Remove the circular ${via}.`));
    return stop(`${via} loop`);
  }
  const section = via === 'include' ? '5.2' : '6.1';
  const txt = await attempt(w, raw, from, name, () => w.dns.txt(name));
  if (failed(txt)) return stop('DNS lookup failed', txt.failed);
  const records = withTag(txt, 'v=spf1');
  if (records.length === 0) {
    // A void lookup is an answer with no records (RFC 7208 section 4.6.4): TXT records that are not SPF are still an
    // answer.
    countVoid(
      w,
      where(w, `${via === 'include' ? 'include:' : 'redirect='}${name}`, from),
      txt.length === 0,
      txt.length === 0,
    );
    w.findings.push(
      error(
        `The ${via} "${name}" has no SPF record${txt.length ? ' (it has TXT records, but none starts with v=spf1)' : ''}, which is a permanent error for receivers (RFC 7208 section ${section}).`,
        via === 'include'
          ? `Remove include:${name} or fix the name.`
          : `Point redirect= at a domain that publishes an SPF record, or fix the name.`,
      ),
    );
    return stop('no SPF record');
  }
  if (records.length > 1) {
    w.findings.push(
      error(
        `The ${via} "${name}" publishes ${records.length} SPF records; receivers treat more than one as a permanent error (RFC 7208 sections 4.5 and ${section}).`,
        `Ask whoever runs ${name} to merge them into one record, or remove "${raw}".`,
      ),
    );
    return stop(`${records.length} SPF records`);
  }
  return { node: await walkRecord(w, name, records[0], new Set([...seen, name]), depth + 1), note: null };
}
