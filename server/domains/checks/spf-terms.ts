import { isIPv4, isIPv6 } from 'node:net';
import { parseDomainSpec, parseMacroString, type MacroString } from './spf-macro';

/*
 * An SPF record's terms by the grammar of RFC 7208 4.6.1, 5 and 6. A record with any syntax error
 * anywhere, even after "all", is a permanent error (4.6), so every term is parsed.
 */

type MechanismName = 'all' | 'include' | 'a' | 'mx' | 'ptr' | 'ip4' | 'ip6' | 'exists';

export interface Mechanism {
  kind: 'mechanism';
  /** As written, for messages. */
  raw: string;
  qualifier: '+' | '-' | '~' | '?';
  name: MechanismName;
  /** The domain-spec, when the term has one. */
  domain: MacroString | null;
}

export interface Modifier {
  kind: 'modifier';
  raw: string;
  /** Lower case: redirect, exp, or a modifier receivers ignore (6). */
  name: string;
  /** The domain-spec of redirect= and exp=. */
  domain: MacroString | null;
}

type Term = Mechanism | Modifier;

interface SyntaxProblem {
  raw: string;
  problem: string;
  /** The RFC 7208 section that says so. */
  section: string;
  fix: string;
}

interface ParsedRecord {
  terms: Term[];
  problems: SyntaxProblem[];
}

const MECHANISMS = new Set<string>(['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists']);

/** What may follow each mechanism's name (5.1 to 5.7): its domain-spec, address and CIDR lengths. */
const DUAL_CIDR = /^(?::(?<domain>.*?))?(?:\/(?<v4>\d+))?(?:\/\/(?<v6>\d+))?$/;
const SHAPES: Record<MechanismName, RegExp> = {
  all: /^$/,
  include: /^:(?<domain>.*)$/,
  exists: /^:(?<domain>.*)$/,
  ptr: /^(?::(?<domain>.*))?$/,
  a: DUAL_CIDR,
  mx: DUAL_CIDR,
  ip4: /^:(?<ip>[^/]+)(?:\/(?<v4>\d+))?$/,
  ip6: /^:(?<ip>[^/]+)(?:\/(?<v6>\d+))?$/,
};

const SHAPE_FIXES: Record<MechanismName, string> = {
  all: 'Write it as "all" with a qualifier only, e.g. "-all".',
  include: 'Write it as include:<domain>, e.g. "include:_spf.example.com".',
  exists: 'Write it as exists:<domain>, e.g. "exists:%{i}._spf.example.com".',
  ptr: 'Remove it: ptr is deprecated (RFC 7208 section 5.5); list your servers with ip4:/ip6: instead.',
  a: 'Use /0 to /32 for IPv4 and //0 to //128 for IPv6, e.g. "a/24" or "a//64".',
  mx: 'Use /0 to /32 for IPv4 and //0 to //128 for IPv6, e.g. "mx/24" or "mx//64".',
  ip4: 'Write it as ip4:<address> or ip4:<network>/<0-32>, e.g. "ip4:192.0.2.0/24".',
  ip6: 'Write it as ip6:<address> or ip6:<network>/<0-128>, e.g. "ip6:2001:db8::/32".',
};

/** The RFC 7208 section that defines each mechanism. */
const SECTIONS: Record<MechanismName, string> = {
  all: '5.1',
  include: '5.2',
  a: '5.3',
  mx: '5.4',
  ptr: '5.5',
  ip4: '5.6',
  ip6: '5.6',
  exists: '5.7',
};

/** 5.6: a CIDR length is written without leading zeros, 0-32 for IPv4 and 0-128 for IPv6. */
const badLength = (length: string | undefined, max: number) =>
  length !== undefined && !(/^(0|[1-9]\d*)$/.test(length) && Number(length) <= max);

/** Why what follows a mechanism's name breaks its grammar, or else the domain-spec it holds (null when it has none). */
function mechanismProblem(
  name: MechanismName,
  rest: string,
): { problem: string; section: string } | { domain: MacroString | null } {
  const section = SECTIONS[name];
  const shape = SHAPES[name].exec(rest);
  if (!shape) return { problem: `it is not written as the ${name} mechanism is`, section };
  const { domain, ip, v4, v6 } = shape.groups ?? {};
  if (name === 'ip4' && !isIPv4(ip))
    return { problem: `"${ip}" is not an IPv4 address (four numbers from 0 to 255)`, section };
  if (name === 'ip6' && (!isIPv6(ip) || ip.includes('%')))
    return { problem: `"${ip}" is not an IPv6 address`, section };
  if (badLength(v4, 32)) return { problem: `the IPv4 prefix length /${v4} is outside /0 to /32`, section };
  if (badLength(v6, 128)) return { problem: `the IPv6 prefix length /${v6} is outside /0 to /128`, section };
  if (domain === undefined) return { domain: null };
  const spec = parseDomainSpec(domain);
  return spec.ok ? { domain: spec.value } : { problem: spec.problem, section: '7.1' };
}

/** 4.6.1: name = ALPHA *( ALPHA / DIGIT / "-" / "_" / "." ), then "=" and its value. */
const MODIFIER = /^([a-z][a-z0-9\-_.]*)=(.*)$/i;
const MECHANISM = /^([+\-~?]?)([a-z0-9]+)(.*)$/i;

function parseTerm(raw: string): Term | SyntaxProblem {
  const invalid = (
    problem: string,
    section: string,
    fix = 'Correct or remove it: receivers reject the whole record.',
  ): SyntaxProblem => ({
    raw,
    problem,
    section,
    fix,
  });
  if (/[^!-~]/.test(raw))
    return invalid(
      'it contains a character SPF does not allow: terms are visible ASCII characters separated by spaces',
      '4.6.1',
    );
  const modifier = MODIFIER.exec(raw);
  if (modifier) {
    const name = modifier[1].toLowerCase();
    const value = modifier[2];
    if (name === 'redirect' || name === 'exp') {
      const spec = parseDomainSpec(value);
      if (!spec.ok) return invalid(`${name}= needs a domain: ${spec.problem}`, name === 'redirect' ? '6.1' : '6.2');
      return { kind: 'modifier', raw, name, domain: spec.value };
    }
    // Receivers ignore modifiers they do not know (6), but their value must still be a macro-string (4.6.1).
    const macro = parseMacroString(value);
    if (!macro.ok) return invalid(macro.problem, '7.1');
    return { kind: 'modifier', raw, name, domain: null };
  }
  const mechanism = MECHANISM.exec(raw);
  const name = mechanism?.[2].toLowerCase() ?? '';
  if (!mechanism || !MECHANISMS.has(name)) {
    if (name === 'redirect' || name === 'exp')
      return invalid(`${name} is a modifier, written with "="`, '6', `Write it as ${name}=<domain>.`);
    return invalid(
      `"${name || raw}" is not an SPF mechanism (all, include, a, mx, ptr, ip4, ip6, exists) nor a modifier (name=value)`,
      '4.6.1',
    );
  }
  const checked = mechanismProblem(name as MechanismName, mechanism[3]);
  if ('problem' in checked) return invalid(checked.problem, checked.section, SHAPE_FIXES[name as MechanismName]);
  return {
    kind: 'mechanism',
    raw,
    qualifier: (mechanism[1] || '+') as Mechanism['qualifier'],
    name: name as MechanismName,
    domain: checked.domain,
  };
}

/** The terms of a record that starts with v=spf1 (selected by the caller), and every syntax error in it. */
export function parseRecord(record: string): ParsedRecord {
  const terms: Term[] = [];
  const problems: SyntaxProblem[] = [];
  // 4.6.1: terms are separated by spaces (SP) only; a tab or line break belongs to the term it touches.
  for (const raw of record.trim().slice('v=spf1'.length).split(' ').filter(Boolean)) {
    const term = parseTerm(raw);
    if ('problem' in term) problems.push(term);
    else terms.push(term);
  }
  for (const name of ['redirect', 'exp']) {
    const repeated = terms.filter((t) => t.kind === 'modifier' && t.name === name);
    if (repeated.length > 1)
      problems.push({
        raw: repeated.map((t) => t.raw).join(' '),
        problem: `${name}= appears ${repeated.length} times, and may appear at most once`,
        section: '6',
        fix: `Keep one ${name}= modifier.`,
      });
  }
  return { terms, problems };
}
