import { isIP } from 'node:net';
import type {
  AggregateRecord,
  AggregateReport,
  DkimAuthResult,
  ParseResult,
  PolicyOverrideReason,
  SpfAuthResult,
} from './aggregate-report';
import { decodeXmlBytes } from './decode-text';
import { STOP, streamXml, type XmlHandlers } from './parse-xml-stream';

/*
 * DMARC aggregate report XML -> AggregateReport, or an error sentence a user can act on.
 * Pure: no I/O. Tolerant where real reporters deviate harmlessly (upper-case 'Pass', empty
 * <reason>, junk around <feedback>, missing optional fields); strict where a stored row would
 * be wrong (broken XML, bad UTF-8, a count that is not a number, an address that is not an IP).
 * Streaming (issue 11): each <record> becomes an AggregateRecord as it closes, so memory holds the
 * records built so far and the text of one element, never a tree of the document.
 */

// DMARC reports never carry a DTD. Refusing any DOCTYPE or ENTITY declaration up front means no
// entity can ever be defined, so none can be expanded (billion laughs, external entities).
const DTD = /<!(?:DOCTYPE|ENTITY)/i;
const RFC9990_NAMESPACE = 'urn:ietf:params:xml:ns:dmarc-2.0';
/** The namespaces DMARC reports have been written in (RFC 7489's drafts, RFC 9990's draft and RFC 9990): never an extension's. */
const DMARC_NAMESPACES = new Set([
  RFC9990_NAMESPACE,
  'http://dmarc.org/dmarc-xml/0.1',
  'http://dmarc.org/dmarc-xml/0.2',
]);
const FEEDBACK_START = /<([A-Za-z_][\w.-]*:)?feedback(?=[\s>/])[^>]*>/;
const MAX_COUNT = 2_147_483_647;

/**
 * The longest text one element may hold. Real reports stay far below (a report id is tens of
 * characters, a domain at most 253); a hostile one must not make us store megabytes per field.
 */
export const MAX_FIELD_CHARS = 1024;

/**
 * The most <record> elements one report may hold: the largest real report in the fixtures holds
 * 2,286, and a 455 KB gzip expanding to 130,000 records took 2 GB to read before streaming (issue 11).
 */
export const MAX_RECORDS = 50_000;

/** A header read decodes this much first: the header is in the first kilobytes of every report seen. */
const HEADER_PREFIX_BYTES = 64 * 1024;

export type ReportHeader = Omit<AggregateReport, 'records'>;
export type HeaderResult = { ok: true; header: ReportHeader } | { ok: false; error: string };

/** The elements read under <feedback>: 'text' holds an element's text, an object the children read. Nothing else is held. */
type Shape = { [name: string]: Shape | 'text' };
const HEADER_SHAPE: Shape = {
  version: 'text',
  report_metadata: {
    org_name: 'text',
    email: 'text',
    report_id: 'text',
    date_range: { begin: 'text', end: 'text' },
    generator: 'text',
  },
  policy_published: {
    domain: 'text',
    discovery_method: 'text',
    adkim: 'text',
    aspf: 'text',
    p: 'text',
    sp: 'text',
    np: 'text',
    pct: 'text',
    fo: 'text',
    testing: 'text',
  },
};
const REPORT_SHAPE: Shape = {
  ...HEADER_SHAPE,
  record: {
    row: {
      source_ip: 'text',
      count: 'text',
      policy_evaluated: { disposition: 'text', dkim: 'text', spf: 'text', reason: { type: 'text', comment: 'text' } },
    },
    identifiers: { header_from: 'text', envelope_from: 'text', envelope_to: 'text' },
    auth_results: {
      dkim: { domain: 'text', selector: 'text', result: 'text', human_result: 'text' },
      spf: { domain: 'text', scope: 'text', result: 'text', human_result: 'text' },
    },
  },
};

/** How the header fields are named when one is too long; others are named by their path. */
const FIELD_NAMES: Record<string, string> = {
  'report_metadata/report_id': 'report_id (report_metadata/report_id)',
  'report_metadata/email': 'e-mail (report_metadata/email)',
  'report_metadata/org_name': 'org_name (report_metadata/org_name)',
  'policy_published/domain': 'domain (policy_published/domain)',
};

class ReportError extends Error {}

type Read = { ok: true; header: ReportHeader; records: AggregateRecord[] } | { ok: false; error: string };

export function parseAggregateReport(input: Uint8Array | string): ParseResult {
  const text = toText(input);
  if (!text.ok) return text;
  const read = readFeedback(text.text, REPORT_SHAPE, false)!;
  return read.ok ? { ok: true, report: { ...read.header, records: read.records } } : read;
}

/**
 * The report's metadata and published policy, checked as parseAggregateReport checks them, without
 * building its records: reading stops once both are read, which in every schema is before the first
 * record. A report that puts its records first is read on, skipping them, until the header is whole.
 */
export function readReportHeader(input: Uint8Array | string): HeaderResult {
  if (input.length > HEADER_PREFIX_BYTES) {
    // Decoding a 100 MB report to find a header in its first kilobyte would cost more than the read itself.
    const head = toText(prefix(input));
    const read = head.ok ? readFeedback(head.text, HEADER_SHAPE, true) : null;
    if (read) return read.ok ? { ok: true, header: read.header } : read;
  }
  const text = toText(input);
  if (!text.ok) return text;
  const read = readFeedback(text.text, HEADER_SHAPE, false)!;
  return read.ok ? { ok: true, header: read.header } : read;
}

/** The first bytes (or characters) of the input, not cutting a UTF-8 character in two. */
function prefix(input: Uint8Array | string): Uint8Array | string {
  if (typeof input === 'string') return input.slice(0, HEADER_PREFIX_BYTES);
  let end = HEADER_PREFIX_BYTES;
  // UTF-8 continuation bytes are 10xxxxxx. In UTF-16 or a single-byte encoding this may shorten the
  // cut by a byte or leave half a character at the end, which only matters if the header is not whole before it.
  for (let back = 0; back < 3 && (input[end] & 0xc0) === 0x80; back++) end--;
  return input.subarray(0, end);
}

function toText(input: Uint8Array | string): { ok: true; text: string } | { ok: false; error: string } {
  if (input.length === 0) return { ok: false, error: 'The file is empty.' };
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    const decoded = decodeXmlBytes(input);
    if (!decoded.ok) return decoded;
    text = decoded.text;
  }
  if (!/\S/.test(text)) return { ok: false, error: 'The file is empty.' };
  if (DTD.test(text)) {
    return {
      ok: false,
      error:
        'The file contains a DOCTYPE or ENTITY declaration. DMARC reports never do, so it was refused without expanding anything.',
    };
  }
  return { ok: true, text };
}

/** null only for a `partial` text (a prefix) that ended before the reading was done. */
function readFeedback(text: string, shape: Shape, partial: boolean): Read | null {
  const start = FEEDBACK_START.exec(text);
  if (!start) {
    if (partial) return null;
    const outcome = streamXml(text, 0, null, true);
    return {
      ok: false,
      error:
        typeof outcome === 'object'
          ? outcome.invalid
          : 'The file is XML but not a DMARC aggregate report: it has no <feedback> element.',
    };
  }
  // Some reporters wrap the report in junk (an unclosed <xs:schema> tag, trailing text): only the
  // <feedback> element is the report, so reading starts at it and stops when it closes.
  const reader = new FeedbackReader(shape);
  try {
    const outcome = streamXml(text, start.index, reader, !partial);
    if (typeof outcome === 'object') return { ok: false, error: outcome.invalid };
    // Only a partial text ends without </feedback>: closing a whole one reports the element left open.
    return outcome === 'stopped' ? reader.result() : null;
  } catch (err) {
    if (err instanceof ReportError) return { ok: false, error: err.message };
    throw err;
  }
}

type Value = string | Obj | Value[];
type Obj = { [name: string]: Value | undefined };

/** Namespace prefixes in scope ('' for the default namespace) and the URIs they are bound to. */
type Namespaces = ReadonlyMap<string, string>;
const NO_NAMESPACES: Namespaces = new Map();

interface Frame {
  name: string;
  shape: Shape | 'text' | undefined;
  namespaces: Namespaces;
  children: Obj;
  text: string;
  /** The text ended in whitespace that took it over the limit: more text would make it too long. */
  padded: boolean;
}

/** Elements not read, and everything inside them. */
const SKIPPED: Frame = { name: '', shape: undefined, namespaces: NO_NAMESPACES, children: {}, text: '', padded: false };

type Metadata = Pick<AggregateReport, 'orgName' | 'email' | 'reportId' | 'dateBegin' | 'dateEnd' | 'generator'>;

class FeedbackReader implements XmlHandlers {
  private readonly stack: Frame[] = [];
  /** The namespace of <feedback>: its elements are the report's; undefined when it has none. */
  private namespace?: string;
  private version: string | null = null;
  private metadata?: Metadata;
  private policy?: AggregateReport['policy'];
  private readonly records: AggregateRecord[] = [];
  private recordNumber = 0;
  private messages = 0;

  constructor(private readonly shape: Shape) {}

  result(): Read {
    const schema = this.namespace === RFC9990_NAMESPACE ? 'rfc9990' : 'rfc7489';
    return {
      ok: true,
      header: { schema, version: this.version, ...this.metadata!, policy: this.policy! },
      records: this.records,
    };
  }

  open(qualifiedName: string, attributes: Record<string, string>): void {
    const { stack } = this;
    const colon = qualifiedName.indexOf(':');
    const prefix = colon < 0 ? '' : qualifiedName.slice(0, colon);
    // The first element is <feedback> itself: the read starts at it.
    if (stack.length === 0) {
      const namespaces = inScope(NO_NAMESPACES, attributes);
      this.namespace = namespaces.get(prefix);
      stack.push(frame('feedback', this.shape, namespaces));
      return;
    }
    const parent = stack[stack.length - 1];
    const name = qualifiedName.slice(colon + 1);
    const shape =
      typeof parent.shape === 'object' && Object.hasOwn(parent.shape, name) ? parent.shape[name] : undefined;
    if (!shape) {
      stack.push(SKIPPED);
      return;
    }
    const namespaces = inScope(parent.namespaces, attributes);
    // Extension elements are namespaced (RFC 9990 section 6): one bound to another namespace than the
    // report's or a DMARC one is not the DMARC element of the same name. A prefix nobody declared is
    // read as the report's: reporters write them so.
    const namespace = namespaces.get(prefix);
    if (namespace && namespace !== this.namespace && !DMARC_NAMESPACES.has(namespace)) {
      stack.push(SKIPPED);
      return;
    }
    if (stack.length === 1 && name === 'record' && ++this.recordNumber > MAX_RECORDS) {
      const max = MAX_RECORDS.toLocaleString('en-US');
      throw new ReportError(
        `The report has more than ${max} records; InboxPulse reads reports of up to ${max} records.`,
      );
    }
    stack.push(frame(name, shape, namespaces));
  }

  text(chunk: string): void {
    const top = this.stack[this.stack.length - 1];
    if (top?.shape !== 'text') return;
    if (top.padded) {
      if (/\S/.test(chunk)) throw this.tooLong();
      return;
    }
    // Leading whitespace is trimmed away in the end, so it is never held.
    top.text += top.text ? chunk : chunk.trimStart();
    if (top.text.length <= MAX_FIELD_CHARS) return;
    top.text = top.text.trimEnd();
    if (top.text.length > MAX_FIELD_CHARS) throw this.tooLong();
    top.padded = true;
  }

  close(): void {
    const closed = this.stack.pop()!;
    const parent = this.stack[this.stack.length - 1];
    if (!parent) return this.finish();
    if (closed === SKIPPED) return;
    const value = closed.shape === 'text' ? closed.text.trimEnd() : closed.children;
    if (parent.shape === this.shape) return this.section(closed.name, value);
    const earlier = parent.children[closed.name];
    if (earlier === undefined) parent.children[closed.name] = value;
    else if (Array.isArray(earlier)) earlier.push(value);
    else parent.children[closed.name] = [earlier, value];
  }

  /** A child of <feedback> closed. */
  private section(name: string, value: Value): void {
    if (name === 'version') this.version = readVersion(value);
    else if (name === 'report_metadata') this.metadata = readMetadata(value as Obj);
    else if (name === 'policy_published') this.policy = readPolicy(value as Obj);
    else {
      const record = toRecord(value as Obj, this.recordNumber);
      this.messages += record.count;
      this.records.push(record);
    }
    // A header read has what it came for.
    if (this.metadata && this.policy && !this.shape.record) throw STOP;
  }

  /** </feedback> closed: what follows it is not read. */
  private finish(): void {
    if (!this.metadata) throw new ReportError('The report has no <report_metadata> section.');
    if (!this.policy) throw new ReportError('The report has no <policy_published> section.');
    if (this.messages > MAX_COUNT)
      throw new ReportError('The report counts more messages than can be stored (over 2^31).');
    throw STOP;
  }

  /** The field being read is too long. */
  private tooLong(): ReportError {
    const max = MAX_FIELD_CHARS.toLocaleString('en-US');
    const path = this.stack
      .slice(1)
      .map((open) => open.name)
      .join('/');
    if (path.startsWith('record/'))
      return new ReportError(`Record ${this.recordNumber}: a value is longer than ${max} characters.`);
    return new ReportError(`The report's ${FIELD_NAMES[path] ?? path} is longer than ${max} characters.`);
  }
}

function frame(name: string, shape: Shape | 'text', namespaces: Namespaces): Frame {
  return { name, shape, namespaces, children: {}, text: '', padded: false };
}

/** The prefixes bound where an element opens: its parent's, and its own xmlns declarations over them. */
function inScope(parent: Namespaces, attributes: Record<string, string>): Namespaces {
  let declared: Map<string, string> | undefined;
  for (const name in attributes) {
    if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
    declared ??= new Map(parent);
    declared.set(name.slice('xmlns:'.length), attributes[name].trim());
  }
  return declared ?? parent;
}

function obj(node: Value | undefined, path: string): Obj {
  if (node && typeof node === 'object' && !Array.isArray(node)) return node;
  throw new ReportError(`The report has no <${path}> section.`);
}

function optObj(node: Value | undefined): Obj {
  return node && typeof node === 'object' && !Array.isArray(node) ? node : {};
}

function list(node: Value | undefined): Value[] {
  if (node === undefined) return [];
  return Array.isArray(node) ? node : [node];
}

/** Element text (trimmed as it was read); null when absent, empty or repeated. */
function str(node: Value | undefined): string | null {
  return typeof node === 'string' && node !== '' ? node : null;
}

const lower = (node: Value | undefined) => str(node)?.toLowerCase() ?? null;

/** xs:decimal as reporters write it ("1.0"); anything else says nothing about the schema. */
function readVersion(node: Value): string | null {
  const version = str(node);
  return version && /^\d+(\.\d+)?$/.test(version) ? version : null;
}

function readMetadata(meta: Obj): Metadata {
  const reportId = str(meta.report_id);
  if (!reportId) throw new ReportError('The report has no report_id (report_metadata/report_id).');
  const email = str(meta.email);
  // Some reporters leave org_name empty; their e-mail domain names them well enough to tell reports apart.
  const orgName = str(meta.org_name) ?? email?.split('@').pop() ?? '';
  const range = obj(meta.date_range, 'report_metadata/date_range');
  return {
    orgName,
    email,
    reportId,
    dateBegin: unixTime(range.begin, 'begin'),
    dateEnd: unixTime(range.end, 'end'),
    generator: str(meta.generator),
  };
}

function readPolicy(published: Obj): AggregateReport['policy'] {
  const domain = lower(published.domain);
  if (!domain) throw new ReportError('The report does not say which domain it covers (policy_published/domain).');
  const pct = str(published.pct);
  return {
    domain,
    adkim: lower(published.adkim),
    aspf: lower(published.aspf),
    p: lower(published.p),
    sp: lower(published.sp),
    np: lower(published.np),
    pct: pct && /^\d{1,3}$/.test(pct) ? Number(pct) : null,
    fo: str(published.fo),
    testing: lower(published.testing),
    discoveryMethod: lower(published.discovery_method),
  };
}

function unixTime(node: Value | undefined, which: string): Date {
  const value = str(node);
  if (!value || !/^\d{1,12}(\.\d+)?$/.test(value)) {
    throw new ReportError(
      `The report's date range ${which} is ${value ? `"${value}"` : 'missing'}; it must be a Unix time (report_metadata/date_range/${which}).`,
    );
  }
  return new Date(Math.floor(Number(value)) * 1000);
}

function toRecord(record: Obj, n: number): AggregateRecord {
  const row = optObj(record.row);
  const ip = str(row.source_ip);
  if (!ip || !isIP(ip))
    throw new ReportError(
      `Record ${n}: ${ip ? `"${ip}" is not an IP address` : 'the source IP is missing'} (row/source_ip).`,
    );
  const countText = str(row.count);
  if (!countText || !/^\d+$/.test(countText) || Number(countText) > MAX_COUNT) {
    throw new ReportError(
      `Record ${n}: the message count ${countText ? `"${countText}" is not a whole number` : 'is missing'} (row/count).`,
    );
  }
  const evaluated = optObj(row.policy_evaluated);
  const disposition = lower(evaluated.disposition);
  if (!disposition)
    throw new ReportError(`Record ${n}: the disposition is missing (row/policy_evaluated/disposition).`);
  const identifiers = optObj(record.identifiers);
  const auth = optObj(record.auth_results);
  return {
    sourceIp: ip,
    count: Number(countText),
    disposition,
    dkimResult: lower(evaluated.dkim) ?? 'none',
    spfResult: lower(evaluated.spf) ?? 'none',
    reason: reasons(evaluated.reason),
    headerFrom: lower(identifiers.header_from) ?? '',
    envelopeFrom: lower(identifiers.envelope_from),
    envelopeTo: lower(identifiers.envelope_to),
    dkimAuth: list(auth.dkim).map((d): DkimAuthResult => {
      const o = optObj(d);
      return {
        domain: lower(o.domain) ?? '',
        selector: str(o.selector),
        result: lower(o.result) ?? 'none',
        humanResult: str(o.human_result),
      };
    }),
    spfAuth: list(auth.spf).map((s): SpfAuthResult => {
      const o = optObj(s);
      return {
        domain: lower(o.domain) ?? '',
        scope: lower(o.scope),
        result: lower(o.result) ?? 'none',
        humanResult: str(o.human_result),
      };
    }),
  };
}

/** An empty <reason><type/><comment/></reason> says nothing: dropped rather than stored as blank. */
function reasons(node: Value | undefined): PolicyOverrideReason[] | null {
  const found = list(node)
    .map((r) => optObj(r))
    .map((o): PolicyOverrideReason | null => {
      const type = lower(o.type);
      const comment = str(o.comment);
      return type || comment ? { type: type ?? 'other', comment } : null;
    })
    .filter((r): r is PolicyOverrideReason => r !== null);
  return found.length ? found : null;
}
