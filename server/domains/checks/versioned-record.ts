import type { Finding } from '@contracts/domains';
import { DnsLookupError, type DnsResolver } from '../../platform/dns/resolver';
import { error, withTag } from './finding';

/*
 * TLS-RPT (RFC 8460 3), MTA-STS (RFC 8461 3.1) and BIMI (draft-brand-indicators-for-message-identification
 * 7.2) records are found the same way: a TXT set at a fixed name, of which receivers keep only the
 * records that begin with the version field, and use the record only when exactly one is left.
 */

export interface RecordKind {
  /** As users know it: "TLS-RPT". */
  name: string;
  /** The first field, exactly: "v=TLSRPTv1". */
  version: string;
  /** Who reads the record: "senders", "mailbox providers". */
  readers: string;
  /** What is lost when they use no record: "no TLS report reaches you". */
  lost: string;
}

/** The TXT records at `name`, or the finding that says the lookup failed: one failed lookup never fails the whole domain check. */
export async function lookupRecords(
  dns: DnsResolver,
  name: string,
  domain: string,
  kind: RecordKind,
): Promise<string[] | Finding> {
  try {
    return await dns.txt(name);
  } catch (err) {
    if (!(err instanceof DnsLookupError)) throw err;
    return error(
      `The DNS lookup of ${name} failed (${err.code}), so ${kind.readers} cannot find your ${kind.name} record now.`,
      `Check that the name servers of ${domain} answer for ${name}, then check again.`,
    );
  }
}

/**
 * The record of the TXT set that receivers use, and the findings when there is not exactly one: several
 * mean none is used; a record naming the version further on is discarded (it is still returned, so its
 * owner sees it and its other fields are checked).
 */
export function findRecord(
  txt: string[],
  name: string,
  kind: RecordKind,
): { record: string | null; findings: Finding[] } {
  const records = withTag(txt, kind.version);
  if (records.length > 1)
    return {
      record: records[0],
      findings: [
        error(
          `${records.length} ${kind.name} records at ${name}: ${kind.readers} use none of them, so ${kind.lost}.`,
          `Keep exactly one ${kind.version} record at ${name} and delete the others.`,
        ),
      ],
    };
  if (records.length === 1) return { record: records[0], findings: [] };
  const misplaced = txt.find((record) => splitFields(record).some((part) => isVersion(part, kind)));
  if (!misplaced) return { record: null, findings: [] };
  const reordered = [kind.version, ...splitFields(misplaced).filter((part) => !isVersion(part, kind))].join('; ');
  return {
    record: misplaced,
    findings: [
      error(
        `The TXT record at ${name} names ${kind.version} but does not begin with it, so ${kind.readers} discard it.`,
        `Make ${kind.version} the first field: "${reordered}".`,
      ),
    ],
  };
}

/** The parts of a record between ";" and the optional white space around each (RFC 8460 3 field-delim, RFC 8461 3.1 sts-sep). */
function splitFields(record: string): string[] {
  const parts = record.trim().split(/[ \t]*;[ \t]*/);
  if (parts.at(-1) === '') parts.pop(); // the optional ";" at the end
  return parts;
}

const isVersion = (part: string, kind: RecordKind) => part.toLowerCase() === kind.version.toLowerCase();

/** A field of a record after its version: "name=value". */
interface RecordField {
  name: string;
  value: string;
}

/** ext-name of RFC 8460 3 and RFC 8461 3.1: (ALPHA / DIGIT) *31(ALPHA / DIGIT / "_" / "-" / "."). */
const FIELD_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
/** ext-value: one or more visible ASCII characters other than "=" and ";". */
const EXT_VALUE = /^[\x21-\x3a\x3c\x3e-\x7e]+$/;

/**
 * The fields of a TLS-RPT or MTA-STS record by their shared grammar (RFC 8460 3, RFC 8461 3.1): the
 * version exactly as written (%s: case-sensitive), and fields "name=value" each after *WSP ";" *WSP.
 * The values of the `known` fields have their own grammar, which the caller checks; any other field
 * is an extension, ignored by receivers once it is well-formed.
 */
export function readFields(
  record: string,
  kind: RecordKind,
  known: string[],
): { fields: RecordField[]; problems: Finding[] } {
  const fields: RecordField[] = [];
  const problems: Finding[] = [];
  const invalid = (message: string, fix: string) =>
    problems.push(error(`${message}, so the record is not valid ${kind.name} syntax.`, fix));
  for (const part of splitFields(record)) {
    if (isVersion(part, kind)) {
      if (part !== kind.version)
        problems.push(
          error(
            `The record begins with "${part}"; it must be exactly "${kind.version}" (upper and lower case as written).`,
            `Write "${kind.version}".`,
          ),
        );
      continue;
    }
    const at = part.indexOf('=');
    const [name, value] = [part.slice(0, at), part.slice(at + 1)];
    if (part === '') invalid('The record has an empty field (two ";" in a row)', 'Remove the extra ";".');
    else if (at < 1 || !FIELD_NAME.test(name))
      invalid(`The field "${part}" is not name=value`, 'Remove it, or write it as name=value.');
    else if (!known.includes(name) && value === '')
      invalid(`The field "${part}" has no value`, 'Give it a value or remove it.');
    else if (!known.includes(name) && !EXT_VALUE.test(value))
      invalid(
        `The field "${part}" holds characters other than visible ASCII (no spaces, "=" or ";")`,
        'Remove those characters, or the field.',
      );
    else fields.push({ name, value });
  }
  return { fields, problems };
}

/** The value of a field; the first counts when one is repeated (RFC 8461 3.2). */
export const fieldValue = (fields: RecordField[], name: string) => fields.find((field) => field.name === name)?.value;
