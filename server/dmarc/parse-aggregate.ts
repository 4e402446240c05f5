import { isIP } from 'node:net';
import type {
  AggregateRecord,
  AggregateReport,
  DkimAuthResult,
  ParseResult,
  PolicyOverrideReason,
  SpfAuthResult,
} from './aggregate-report';
import { replacedUtf8, replacingDecoder, unfinishedUtf8, xmlTextDecoder } from './decode-text';
import { SLICE_CHARS, STOP, XmlStream, type StreamOutcome, type XmlHandlers } from './parse-xml-stream';
import { StrayCharacters } from './stray-characters';

/*
 * DMARC aggregate report XML -> AggregateReport, or an error sentence a user can act on.
 * Pure: no I/O. Tolerant where real reporters deviate harmlessly (upper-case 'Pass', empty
 * <reason>, junk around <feedback>, missing optional fields); recovering what parsedmarc recovers, with a
 * warning the report keeps (bad UTF-8 bytes, a stray "&" or "<" in a text value: ADR 017); strict where a
 * stored row would be wrong (broken XML, a count that is not a number, an address that is not an IP).
 * Streaming (issue 11, issue 37): each <record> becomes an AggregateRecord as it closes, and the text is
 * decoded and read a piece at a time, so memory holds a batch of records and a piece of the text, never a
 * tree of the document nor the whole of its text.
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
 * Records are handed on this many at a time (streamAggregateReport): one insert each (dmarc.repo.ts), about
 * 2 MB of JSON, so a report of any size is held a batch at a time.
 */
export const RECORD_BATCH = 5_000;

/**
 * Records read before the header is whole wait for it: every schema puts the header first, so a report
 * that puts more than this many records ahead of it is refused rather than held.
 */
export const MAX_RECORDS_BEFORE_HEADER = 50_000;

/** A header read decodes this much first: the header is in the first kilobytes of every report seen. */
const HEADER_PREFIX_BYTES = 64 * 1024;

/** How far into the text <feedback> is looked for: the junk some reporters write before it is a line or two. */
const FEEDBACK_SEARCH_CHARS = 1024 * 1024;

export type ReportHeader = Omit<AggregateReport, 'records'>;

/**
 * A report too large to hold decompressed (unpack.ts): its size, its first bytes, and its bytes again a
 * piece at a time, decompressed as they are read.
 */
export interface PiecewiseBytes {
  length: number;
  head: Uint8Array;
  pieces(): Iterable<Uint8Array>;
}

export type ReportInput = Uint8Array | string | PiecewiseBytes;
export type HeaderResult = { ok: true; header: ReportHeader } | { ok: false; error: string };

/** What a streamed read hands on as it reads (streamAggregateReport). */
export interface ReportSink {
  /** The header is whole, before any record is handed on. false: the report is not wanted and the read ends. */
  header(header: ReportHeader): Promise<boolean>;
  /** The next records, in the report's order, at most RECORD_BATCH at a time. */
  records(batch: AggregateRecord[]): Promise<void>;
}

/**
 * wanted: false when the sink turned the report down on its header. warnings: what was recovered to read it
 * (absent when nothing was).
 */
export type StreamResult =
  { ok: true; header: ReportHeader; wanted: boolean; warnings?: string[] } | { ok: false; error: string };

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

/** null only for a `partial` text (a prefix) that ended before the reading was done. */
type Read = { ok: true; header: ReportHeader; warnings?: string[] } | { ok: false; error: string } | null;

/** The whole report at once: for a report known to be small (and the parser's tests). */
export function parseAggregateReport(input: ReportInput): ParseResult {
  const reader = new FeedbackReader(REPORT_SHAPE);
  const read = runToEnd(readFeedback(input, reader, false))!;
  if (!read.ok) return read;
  const { header, warnings } = read;
  return { ok: true, report: { ...header, records: reader.take() }, ...(warnings && { warnings }) };
}

/**
 * The report read a piece at a time, its records handed to `sink` in batches as they are read, so a
 * report of any size is held a batch at a time. The sink hears of the header before any record; a
 * read that fails may have handed on records already: the caller undoes what it did with them.
 */
export async function streamAggregateReport(input: ReportInput, sink: ReportSink): Promise<StreamResult> {
  const reader = new FeedbackReader(REPORT_SHAPE);
  const read = readFeedback(input, reader, false);
  let told = false;
  for (;;) {
    const step = read.next();
    const header = reader.header();
    if (header && !told) {
      told = true;
      if (!(await sink.header(header))) return { ok: true, header, wanted: false };
    }
    if (step.done) {
      const result = step.value!;
      if (!result.ok) return result;
      if (reader.pending.length > 0) await sink.records(reader.take());
      return { ok: true, header: result.header, wanted: true, ...(result.warnings && { warnings: result.warnings }) };
    }
    if (told && reader.pending.length >= RECORD_BATCH) await sink.records(reader.take());
    else if (!told && reader.pending.length > MAX_RECORDS_BEFORE_HEADER) {
      const max = MAX_RECORDS_BEFORE_HEADER.toLocaleString('en-US');
      return {
        ok: false,
        error: `The report has more than ${max} records before its <report_metadata> and <policy_published>, which every DMARC schema puts first.`,
      };
    }
  }
}

/**
 * The report's metadata and published policy, checked as parseAggregateReport checks them, without
 * building its records: reading stops once both are read, which in every schema is before the first
 * record. A report that puts its records first is read on, skipping them, until the header is whole.
 */
export function readReportHeader(input: ReportInput): HeaderResult {
  // Decoding a 100 MB report to find a header in its first kilobyte would cost more than the read itself.
  const read =
    (input.length > HEADER_PREFIX_BYTES &&
      runToEnd(readFeedback(prefix(input), new FeedbackReader(HEADER_SHAPE), true))) ||
    runToEnd(readFeedback(input, new FeedbackReader(HEADER_SHAPE), false))!;
  // What was recovered is told when the whole report is read.
  return read.ok ? { ok: true, header: read.header } : read;
}

/** The first bytes (or characters) of the input, not cutting a UTF-8 character in two. */
function prefix(input: ReportInput): Uint8Array | string {
  if (typeof input === 'string') return input.slice(0, HEADER_PREFIX_BYTES);
  if (!(input instanceof Uint8Array)) return input.head.subarray(0, HEADER_PREFIX_BYTES);
  let end = HEADER_PREFIX_BYTES;
  // UTF-8 continuation bytes are 10xxxxxx. In UTF-16 or a single-byte encoding this may shorten the
  // cut by a byte or leave half a character at the end, which only matters if the header is not whole before it.
  for (let back = 0; back < 3 && (input[end] & 0xc0) === 0x80; back++) end--;
  return input.subarray(0, end);
}

/** A read run to its end at once. */
function runToEnd(read: Generator<void, Read>): Read {
  for (;;) {
    const step = read.next();
    if (step.done) return step.value;
  }
}

/**
 * Reads the report into `reader`, pausing (yield) after each piece of text, when the caller may take the
 * records read so far. Some reporters wrap the report in junk (an unclosed <xs:schema> tag, trailing
 * text): only the <feedback> element is the report, so reading starts at it and stops when it closes.
 */
function* readFeedback(input: ReportInput, reader: FeedbackReader, partial: boolean): Generator<void, Read> {
  const warnings: string[] = [];
  let stray: StrayCharacters | undefined;
  const done = (outcome: StreamOutcome) => {
    const read = ended(outcome, reader);
    if (!read?.ok) return read;
    const recovered = [...warnings, stray?.warning()].filter((w) => w !== undefined);
    return recovered.length > 0 ? { ...read, warnings: recovered } : read;
  };
  try {
    let xml: XmlStream | undefined;
    let searched = '';
    let anyText = false;
    for (const piece of textPieces(input, warnings)) {
      anyText ||= /\S/.test(piece);
      let outcome: StreamOutcome | undefined;
      if (xml) outcome = xml.write(stray!.push(piece));
      else {
        searched += piece;
        const start = FEEDBACK_START.exec(searched);
        if (!start) {
          if (searched.length > FEEDBACK_SEARCH_CHARS) break;
          continue;
        }
        const before = searched.slice(0, start.index);
        xml = new XmlStream(reader, before);
        stray = new StrayCharacters(before.split('\n').length - 1);
        outcome = xml.write(stray.push(searched.slice(start.index)));
        searched = '';
      }
      if (outcome) return done(outcome);
      yield;
    }
    if (!anyText) return { ok: false, error: 'The file is empty.' };
    if (xml) return done(xml.write(stray!.end()) ?? xml.end(!partial));
    if (partial) return null;
    const check = new XmlStream(null);
    const outcome = check.write(searched) ?? check.end(true);
    return {
      ok: false,
      error:
        typeof outcome === 'object'
          ? outcome.invalid
          : 'The file is XML but not a DMARC aggregate report: it has no <feedback> element.',
    };
  } catch (err) {
    if (err instanceof ReportError) return { ok: false, error: err.message };
    throw err;
  }
}

/** Only a partial text ends without </feedback>: closing a whole one reports the element left open. */
function ended(outcome: StreamOutcome, reader: FeedbackReader): Read {
  if (typeof outcome === 'object') return { ok: false, error: outcome.invalid };
  return outcome === 'stopped' ? { ok: true, header: reader.header()! } : null;
}

/**
 * The input as text, a piece at a time; refused (ReportError) when it is empty, not text, or declares a DTD.
 * What was recovered to decode it is added to `warnings`.
 */
function* textPieces(input: ReportInput, warnings: string[]): Generator<string> {
  if (input.length === 0) throw new ReportError('The file is empty.');
  // A declaration cut in two by the pieces is found in the end of one and the start of the next.
  let tail = '';
  for (const piece of typeof input === 'string' ? stringPieces(input) : decodedPieces(input, warnings)) {
    if (DTD.test(tail + piece)) {
      throw new ReportError(
        'The file contains a DOCTYPE or ENTITY declaration. DMARC reports never do, so it was refused without expanding anything.',
      );
    }
    tail = piece.slice(-8);
    yield piece;
  }
}

function* stringPieces(text: string): Generator<string> {
  for (let at = 0; at < text.length; at += SLICE_CHARS) yield text.slice(at, at + SLICE_CHARS);
}

/** Decoded a piece at a time; bad UTF-8 is replaced from the first bad byte on, which `warnings` is told of. */
function* decodedPieces(input: Uint8Array | PiecewiseBytes, warnings: string[]): Generator<string> {
  const chosen = xmlTextDecoder(input instanceof Uint8Array ? input : input.head);
  if (!chosen.ok) throw new ReportError(chosen.error);
  let { decoder } = chosen;
  /** What the fatal decoder holds of a character begun at the end of the last piece. */
  let unfinished: Uint8Array = new Uint8Array(0);
  let lines = 0;
  let piece: string;
  for (const bytes of input instanceof Uint8Array ? byteSlices(input) : input.pieces()) {
    try {
      piece = decoder.decode(bytes, { stream: true });
      if (decoder.fatal) unfinished = unfinishedUtf8(bytes);
    } catch {
      const again = Buffer.concat([unfinished, bytes]);
      warnings.push(replacedUtf8(again, lines));
      decoder = replacingDecoder();
      piece = decoder.decode(again, { stream: true });
    }
    for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) lines++;
    yield piece;
  }
  try {
    yield decoder.decode();
  } catch {
    // The file ends in the middle of a character.
    warnings.push(replacedUtf8(new Uint8Array([0xff]), lines));
    yield '\uFFFD';
  }
}

function* byteSlices(bytes: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += SLICE_CHARS) yield bytes.subarray(at, at + SLICE_CHARS);
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
  /** The records read and not yet taken. */
  pending: AggregateRecord[] = [];
  private recordNumber = 0;
  private messages = 0;

  constructor(private readonly shape: Shape) {}

  /** The header, once it is whole. */
  header(): ReportHeader | undefined {
    if (!this.metadata || !this.policy) return undefined;
    const schema = this.namespace === RFC9990_NAMESPACE ? 'rfc9990' : 'rfc7489';
    return { schema, version: this.version, ...this.metadata, policy: this.policy };
  }

  take(): AggregateRecord[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
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
    if (stack.length === 1 && name === 'record') this.recordNumber++;
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
      this.pending.push(record);
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
