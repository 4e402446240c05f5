/**
 * A tag=value list as DKIM (RFC 6376 3.2), DMARC, MTA-STS, TLS-RPT and BIMI records write them:
 * tags separated by ";", white space allowed around "=" and ";". Tag names are lower-cased.
 */
export function parseTags(record: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const part of record.split(';')) {
    const i = part.indexOf('=');
    if (i > 0) tags[part.slice(0, i).trim().toLowerCase()] = part.slice(i + 1).trim();
  }
  return tags;
}

/** A tag list read to the letter of RFC 6376 section 3.2: its tags in published order, or what makes it invalid. */
export type StrictTagList = { ok: true; tags: Map<string, string> } | { ok: false; problem: string };

const WSP_AROUND = /^[ \t]+|[ \t]+$/g;
const TAG_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
/** tag-value is runs of VALCHAR (%x21-3A / %x3C-7E) separated by white space: anything else in it is not. */
const NOT_VALCHAR = /[^\x21-\x3a\x3c-\x7e \t]/;
const codePoint = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** A piece of a record short enough to quote in a sentence. */
export function excerpt(text: string, max = 30): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The tag=value list of DKIM key records (RFC 6376 section 3.2), stricter than parseTags: names are
 * case-sensitive; white space (folded lines too) may surround "=" and ";" and separate runs of a
 * value; and a tag named twice, a part without "=", an empty part or a character outside the grammar
 * makes the whole list invalid, as verifiers treat it.
 */
export function parseStrictTagList(text: string): StrictTagList {
  const fail = (problem: string): StrictTagList => ({ ok: false, problem });
  const specs = text.replace(/\r\n(?=[ \t])/g, '').split(';');
  // The grammar allows one ";" after the last tag (and verifiers, white space after it).
  if (specs.length > 1 && specs.at(-1)!.replace(WSP_AROUND, '') === '') specs.pop();
  const tags = new Map<string, string>();
  for (const spec of specs) {
    if (spec.replace(WSP_AROUND, '') === '')
      return fail(specs.length === 1 ? 'it is empty' : 'it has an empty tag between two semicolons');
    const equals = spec.indexOf('=');
    if (equals === -1) return fail(`"${excerpt(spec.replace(WSP_AROUND, ''))}" has no "="`);
    const name = spec.slice(0, equals).replace(WSP_AROUND, '');
    const value = spec.slice(equals + 1).replace(WSP_AROUND, '');
    if (!TAG_NAME.test(name))
      return fail(`"${excerpt(name)}" is not a tag name (letters, digits and "_", starting with a letter)`);
    const character = NOT_VALCHAR.exec(value)?.[0];
    if (character)
      return fail(
        `the value of ${name}= contains ${JSON.stringify(character)} (${codePoint(character)}), which a tag value cannot hold`,
      );
    if (tags.has(name)) return fail(`the tag ${name}= appears twice`);
    tags.set(name, value);
  }
  return { ok: true, tags };
}
