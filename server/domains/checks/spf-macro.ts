/*
 * SPF macro-strings (RFC 7208 section 7): parsed by the grammar of 7.1 and expanded by the rules of
 * 7.3, for the letters whose value is known without a message.
 */

/** The letters a domain-spec may name (7.1); c, r and t are for explanation text only. */
const DOMAIN_LETTERS = new Set(['s', 'l', 'o', 'd', 'i', 'p', 'h', 'v']);
const EXPLANATION_ONLY = new Set(['c', 'r', 't']);

type MacroLetter = 's' | 'l' | 'o' | 'd' | 'i' | 'p' | 'h' | 'v';
export type MacroValues = Partial<Record<MacroLetter, string>>;

type MacroPart =
  | { kind: 'literal'; text: string }
  | { kind: 'macro'; letter: MacroLetter; upper: boolean; digits: number | null; reverse: boolean; delimiters: string };

export interface MacroString {
  parts: MacroPart[];
  /** Whether it ends in a macro-expand, which 7.1 accepts as a domain-end. */
  endsWithMacro: boolean;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/** %{letter digits "r" delimiters}: 7.1's macro-expand between the braces. */
const MACRO_BODY = /^([a-z])(\d*)(r?)([.\-+,/_=]*)$/i;

/** RFC 7208 7.1: a macro-string (the value of any modifier; domain-specs are one with a domain-end). */
export function parseMacroString(text: string): Parsed<MacroString> {
  const parts: MacroPart[] = [];
  let literal = '';
  let endsWithMacro = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    endsWithMacro = false;
    if (char !== '%') {
      if (char < '!' || char > '~') return { ok: false, problem: 'it contains a character that is not visible ASCII' };
      literal += char;
      continue;
    }
    const next = text[i + 1];
    // %% %_ %- are escapes for a percent sign, a space and a URL-encoded space.
    const escape = next === '%' ? '%' : next === '_' ? ' ' : next === '-' ? '%20' : null;
    if (escape !== null) {
      literal += escape;
      i++;
      endsWithMacro = true;
      continue;
    }
    if (next !== '{')
      return { ok: false, problem: 'a "%" must start a macro such as %{d}, or be written %% for a percent sign' };
    const close = text.indexOf('}', i + 2);
    const body = close === -1 ? null : MACRO_BODY.exec(text.slice(i + 2, close));
    if (!body)
      return {
        ok: false,
        problem: `"${text.slice(i, close === -1 ? undefined : close + 1)}" is not a macro of the form %{letter}, e.g. %{d} or %{ir}`,
      };
    const letter = body[1].toLowerCase();
    if (EXPLANATION_ONLY.has(letter))
      return { ok: false, problem: `%{${body[1]}} may only be used in explanation text, not in a domain name` };
    if (!DOMAIN_LETTERS.has(letter))
      return { ok: false, problem: `%{${body[1]}} is not a macro letter (s, l, o, d, i, p, h or v)` };
    if (body[2] !== '' && Number(body[2]) === 0)
      return { ok: false, problem: `the number in %{${body[0]}} must not be zero` };
    if (literal) parts.push({ kind: 'literal', text: literal });
    literal = '';
    parts.push({
      kind: 'macro',
      letter: letter as MacroLetter,
      upper: body[1] !== letter,
      digits: body[2] === '' ? null : Number(body[2]),
      reverse: body[3] !== '',
      delimiters: body[4] || '.',
    });
    i = close;
    endsWithMacro = true;
  }
  if (literal) parts.push({ kind: 'literal', text: literal });
  return { ok: true, value: { parts, endsWithMacro } };
}

/** 7.1: toplabel = ( *alphanum ALPHA *alphanum ) / ( 1*alphanum "-" *( alphanum / "-" ) alphanum ). */
const TOP_LABEL = /\.(?:[a-z0-9]*[a-z][a-z0-9]*|[a-z0-9]+-[a-z0-9-]*[a-z0-9])\.?$/i;

/** RFC 7208 7.1: domain-spec = macro-string domain-end, where domain-end is "." toplabel ["."] or a macro. */
export function parseDomainSpec(text: string): Parsed<MacroString> {
  if (text === '') return { ok: false, problem: 'the domain is empty' };
  const parsed = parseMacroString(text);
  if (!parsed.ok || parsed.value.endsWithMacro || TOP_LABEL.test(text)) return parsed;
  return { ok: false, problem: `"${text}" does not end in a top-level label such as ".com" (or in a macro)` };
}

/** The sender-dependent letters a macro-string names, none when it can be expanded with `values`. */
export function missingLetters(spec: MacroString, values: MacroValues): MacroLetter[] {
  const missing = spec.parts.flatMap((part) =>
    part.kind === 'macro' && values[part.letter] === undefined ? [part.letter] : [],
  );
  return [...new Set(missing)];
}

/** RFC 3986 unreserved characters stay; uppercase macros escape every other byte (7.3). */
const urlEscape = (value: string) =>
  [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** 7.3: split on the delimiters, reverse if asked, keep the right-hand `digits` parts, join with dots. */
function transform(value: string, part: Extract<MacroPart, { kind: 'macro' }>): string {
  const splitter = new RegExp(`[${part.delimiters.replace(/[-\\\]^/]/g, '\\$&')}]`);
  let labels = value.split(splitter);
  if (part.reverse) labels = labels.reverse();
  if (part.digits !== null) labels = labels.slice(-part.digits);
  const joined = labels.join('.');
  return part.upper ? urlEscape(joined) : joined;
}

/** Expands a macro-string whose letters all have values (see missingLetters). */
export function expandMacroString(spec: MacroString, values: MacroValues): string {
  return spec.parts
    .map((part) => (part.kind === 'literal' ? part.text : transform(values[part.letter] ?? '', part)))
    .join('');
}

const NAME_LIMIT = 253;

/**
 * The name a receiver queries for an expanded domain-spec: without a trailing dot, and cut from the
 * left, label by label, to at most 253 characters (7.3).
 */
export function targetName(expanded: string): string {
  let name = expanded.replace(/\.$/, '');
  while (name.length > NAME_LIMIT && name.includes('.')) name = name.slice(name.indexOf('.') + 1);
  return name;
}

/** Why a target name cannot be put in a DNS query (an empty label, or one over 63 characters), or null. */
export function unqueryableName(name: string): string | null {
  const labels = name.split('.');
  if (labels.some((label) => label === '')) return `"${name}" has an empty label (two dots in a row)`;
  const long = labels.find((label) => label.length > 63);
  if (long) return `"${name}" has a label longer than 63 characters`;
  return null;
}
