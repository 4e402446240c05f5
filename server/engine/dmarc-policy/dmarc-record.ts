/**
 * A DMARC Policy Record read as receivers read it: RFC 9989 4.7 (tags) and 4.8 (formal grammar),
 * with the tags RFC 7489 had and RFC 9989 removed kept for the receivers that still follow 7489.
 * Nothing here throws: what the grammar does not allow is listed and left out, as 4.8 asks
 * ("Syntax errors in the remainder of the record MUST be discarded in favor of default values").
 */

export const DMARC_POLICIES = ['none', 'quarantine', 'reject'] as const;
export type DmarcPolicy = (typeof DMARC_POLICIES)[number];
export type AlignmentMode = 'r' | 's';

/** The tags RFC 9989 4.7 defines; any other tag MUST be ignored. */
export const DMARC_TAGS = ['v', 'p', 'sp', 'np', 'psd', 't', 'adkim', 'aspf', 'fo', 'rua', 'ruf'] as const;
/** RFC 7489 tags that RFC 9989 removed (C.5.2): RFC 9989 receivers ignore them, 7489 receivers still read them. */
export const REMOVED_DMARC_TAGS = ['pct', 'rf', 'ri'] as const;

export interface ReportUri {
  /** As published, without the obsolete "!size" suffix. */
  uri: string;
  /** Lower case, e.g. "mailto". */
  scheme: string;
  /** For mailto: the address and the host of its domain part. */
  address: string | null;
  host: string | null;
  /** RFC 7489's "!10m" size limit, obsolete in RFC 9989 (4.8: reporters ignore it). */
  obsoleteSize: string | null;
}

export interface DmarcRecord {
  /** Every tag as published (names lower-cased; the first of a repeated tag), for display. */
  tags: Record<string, string>;
  /** A valid value, or null when the tag is absent or its value is not in the grammar. */
  p: DmarcPolicy | null;
  sp: DmarcPolicy | null;
  np: DmarcPolicy | null;
  /** Defaults applied: r, r, u, n. */
  adkim: AlignmentMode;
  aspf: AlignmentMode;
  psd: 'y' | 'n' | 'u';
  t: 'y' | 'n';
  /** The URIs that are syntactically valid (RFC 3986 URIs); the rest are listed in `invalid`. */
  rua: ReportUri[];
  ruf: ReportUri[];
  /** RFC 7489 6.3's pct, for 7489 receivers; null when absent or not a whole number from 0 to 100 (they then apply 100). */
  pct: number | null;
  /** Tag values (or single rua/ruf URIs) the grammar does not allow, discarded. */
  invalid: { tag: string; value: string }[];
  /** Tags RFC 9989 does not define and RFC 7489 did not have: ignored. */
  unknown: string[];
  /** Tags written more than once: the first is read, receivers differ on which they use. */
  repeated: string[];
  /** Parts that are not tag=value at all, ignored. */
  malformed: string[];
}

/** 4.7 "v": the first tag, its value exactly "DMARC1" (case-sensitive: %s in 4.8); the name is ABNF "v", so V too. */
const VERSION = /^[vV][ \t]*=[ \t]*DMARC1$/;
const firstPart = (txt: string) => txt.split(';')[0].trim();

/** Whether a TXT record is a DMARC Policy Record at all (4.7 "v"; 4.10 step 2): the others at _dmarc are discarded. */
export const isDmarcRecord = (txt: string) => VERSION.test(firstPart(txt));

/**
 * Why a TXT record that starts like one (v=DMARC1 in any case) is not a DMARC Policy Record: its
 * version written in lower case, or no ";" after it (so the value runs on). Null for the others.
 */
export function whyNotDmarcRecord(txt: string): 'version-case' | 'no-separator' | null {
  const first = firstPart(txt);
  if (isDmarcRecord(txt) || !/^v[ \t]*=[ \t]*dmarc1/i.test(first)) return null;
  return /^v[ \t]*=[ \t]*dmarc1$/i.test(first) ? 'version-case' : 'no-separator';
}

const TAG_NAME = /^[a-z]+$/i;

function reportUris(tag: string, value: string, invalid: DmarcRecord['invalid']): ReportUri[] {
  const uris: ReportUri[] = [];
  for (const item of value.split(',').map((u) => u.trim())) {
    // 4.8 obs-dmarc-report-size: "!" 1*DIGIT [k/m/g/t]; a literal "!" in the URI itself must be encoded.
    const size = /!(\d+[kmgt]?)$/i.exec(item);
    const uri = size ? item.slice(0, size.index) : item;
    const scheme = /^([a-z][a-z0-9+.-]*):\S+$/i.exec(uri)?.[1]?.toLowerCase();
    const mailbox = scheme === 'mailto' ? /^mailto:([^@\s,!]+@([a-z0-9-]+(?:\.[a-z0-9-]+)*\.?))$/i.exec(uri) : null;
    if (!scheme || (scheme === 'mailto' && !mailbox)) {
      invalid.push({ tag, value: item });
      continue;
    }
    uris.push({
      uri,
      scheme,
      address: mailbox?.[1] ?? null,
      host: mailbox?.[2].toLowerCase().replace(/\.$/, '') ?? null,
      obsoleteSize: size?.[1] ?? null,
    });
  }
  return uris;
}

/** 4.8 dmarc-fo: 0 or 1 (not both) and d, s, each at most once, colon-separated. */
function validFo(value: string): boolean {
  const items = value.split(':');
  return (
    items.every((i) => ['0', '1', 'd', 's'].includes(i)) &&
    new Set(items).size === items.length &&
    !(items.includes('0') && items.includes('1'))
  );
}

function oneOf<T extends string>(
  tag: string,
  value: string | undefined,
  allowed: readonly T[],
  invalid: DmarcRecord['invalid'],
): T | null {
  if (value === undefined) return null;
  // Value rules are ABNF quoted strings: case-insensitive (RFC 5234 2.3), as receivers read them.
  const lower = value.toLowerCase() as T;
  if (allowed.includes(lower)) return lower;
  invalid.push({ tag, value });
  return null;
}

/** Reads a record that `isDmarcRecord` accepted. */
export function parseDmarcRecord(txt: string): DmarcRecord {
  const tags: Record<string, string> = {};
  const repeated: string[] = [];
  const malformed: string[] = [];
  // 4.8: dmarc-sep = *WSP ";" *WSP, equals = *WSP "=" *WSP, dmarc-tag = 1*ALPHA equals 1*dmarc-value.
  for (const part of txt.split(';').map((p) => p.trim())) {
    if (part === '') continue;
    const i = part.indexOf('=');
    const name = i > 0 ? part.slice(0, i).trim().toLowerCase() : '';
    const value = i > 0 ? part.slice(i + 1).trim() : '';
    if (!TAG_NAME.test(name) || value === '') {
      malformed.push(part);
      continue;
    }
    if (name in tags) repeated.push(name);
    else tags[name] = value;
  }
  const invalid: DmarcRecord['invalid'] = [];
  const p = oneOf('p', tags.p, DMARC_POLICIES, invalid);
  const sp = oneOf('sp', tags.sp, DMARC_POLICIES, invalid);
  const np = oneOf('np', tags.np, DMARC_POLICIES, invalid);
  const adkim = oneOf('adkim', tags.adkim, ['r', 's'] as const, invalid) ?? 'r';
  const aspf = oneOf('aspf', tags.aspf, ['r', 's'] as const, invalid) ?? 'r';
  const psd = oneOf('psd', tags.psd, ['y', 'n', 'u'] as const, invalid) ?? 'u';
  const t = oneOf('t', tags.t, ['y', 'n'] as const, invalid) ?? 'n';
  if (tags.fo !== undefined && !validFo(tags.fo.toLowerCase())) invalid.push({ tag: 'fo', value: tags.fo });
  const rua = tags.rua === undefined ? [] : reportUris('rua', tags.rua, invalid);
  const ruf = tags.ruf === undefined ? [] : reportUris('ruf', tags.ruf, invalid);
  let pct: number | null = null;
  if (tags.pct !== undefined) {
    if (/^\d{1,3}$/.test(tags.pct) && Number(tags.pct) <= 100) pct = Number(tags.pct);
    else invalid.push({ tag: 'pct', value: tags.pct });
  }
  const known = new Set<string>([...DMARC_TAGS, ...REMOVED_DMARC_TAGS]);
  const unknown = Object.keys(tags).filter((name) => !known.has(name));
  return { tags, p, sp, np, adkim, aspf, psd, t, rua, ruf, pct, invalid, unknown, repeated, malformed };
}

/**
 * RFC 9989 4.10.1 (RFC 7489 6.6.3 step 6 likewise): a record without a valid p=, or with an sp= or
 * np= that is not valid, is read as p=none when its rua= holds at least one valid URI; without one,
 * receivers apply no DMARC processing at all.
 */
export function policyTagsValid(record: DmarcRecord): boolean {
  return (
    record.p !== null &&
    (record.tags.sp === undefined || record.sp !== null) &&
    (record.tags.np === undefined || record.np !== null)
  );
}
