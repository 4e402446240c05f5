import { Unzip, UnzipInflate } from 'fflate';
import { simpleParser, type ParsedMail } from 'mailparser';
import { promisify } from 'node:util';
import { crc32, inflateRaw, type Zlib, type ZlibOptions } from 'node:zlib';
import { AppError } from '../platform/errors';
import { describeFailureReport, readFeedbackReport, type FailureReport } from './failure-report';

/*
 * An uploaded file -> the report files inside it. The format is told by the bytes (gzip and zip
 * magic numbers, a leading '<', RFC 5322 header lines), not by the name: mail clients and
 * reporters name files loosely. Everything decompressed in one upload shares one budget, so a
 * decompression bomb is refused as a whole, before anything is stored.
 */

export const DECOMPRESSED_LIMIT_BYTES = 50 * 1024 * 1024;
/** A zip or e-mail with more parts than this is refused: no reporter sends that many per file. */
const MAX_PARTS = 1000;
/** gzip inside an e-mail inside ... : deeper than this is not a report. */
const MAX_DEPTH = 4;
// Fed to the inflater in small slices so no single step can produce more than a few MB
// before the budget is checked (deflate expands at most ~1032:1).
const ZIP_SLICE_BYTES = 4096;

/** A failure report (RFC 9991) found where an aggregate report was looked for: what its ARF part says, and the From address of its e-mail. */
export interface FoundFailureReport {
  arf: FailureReport;
  mailFrom: string | null;
}

/**
 * One report file found in the upload: its bytes to parse (and what was ignored to read them), or why
 * it could not be read; for a failure report, what it says, so that it can be routed by its domain.
 */
export type UnpackedPart =
  | { fileName: string; bytes: Uint8Array; error?: undefined; warning?: string }
  | { fileName: string; error: string; rawSize: number; failureReport?: FoundFailureReport };

/** One file as it was uploaded: a raw request body, or one file part of a form. */
export interface UploadedFile {
  fileName: string;
  data: Uint8Array;
}

function bombError(limit: number): AppError {
  return new AppError(
    'payload_too_large',
    `The upload expands to more than ${Math.round(limit / 1024 / 1024)} MB when decompressed. It was refused and nothing was stored.`,
  );
}

/** What one upload has produced so far, and what it may still decompress. */
class Budget {
  used = 0;
  readonly parts: UnpackedPart[] = [];
  constructor(readonly limit: number) {}
  get remaining(): number {
    return this.limit - this.used;
  }
  take(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) throw bombError(this.limit);
  }
  push(part: UnpackedPart): void {
    this.checkCount(this.parts.length + 1);
    this.parts.push(part);
  }
  checkCount(count: number): void {
    if (count > MAX_PARTS)
      throw new AppError(
        'payload_too_large',
        `The upload holds more than ${MAX_PARTS} files. Split it and upload the parts.`,
      );
  }
}

export async function unpackUpload(
  data: Uint8Array,
  fileName: string,
  limit = DECOMPRESSED_LIMIT_BYTES,
): Promise<UnpackedPart[]> {
  return (await unpackFiles([{ data, fileName }], limit))[0];
}

/** The files of one upload (a form may hold several), each into its parts; they share one budget, as a zip's files do. */
export async function unpackFiles(files: UploadedFile[], limit = DECOMPRESSED_LIMIT_BYTES): Promise<UnpackedPart[][]> {
  const budget = new Budget(limit);
  const unpacked: UnpackedPart[][] = [];
  for (const file of files) {
    const first = budget.parts.length;
    await unpack(file.data, file.fileName, budget, 0);
    unpacked.push(budget.parts.slice(first));
  }
  return unpacked;
}

type Kind = 'gzip' | 'zip' | 'xml' | 'json' | 'email' | 'unknown';

export function sniff(data: Uint8Array): Kind {
  if (data[0] === 0x1f && data[1] === 0x8b) return 'gzip';
  if (
    data[0] === 0x50 &&
    data[1] === 0x4b &&
    (data[2] === 0x03 || data[2] === 0x05) &&
    (data[3] === 0x04 || data[3] === 0x06)
  )
    return 'zip';
  const head = Buffer.from(data.subarray(0, 512)).toString('latin1');
  // UTF-8 and UTF-16 byte order marks, then optional white space.
  const start = head
    .replace(/^(\xef\xbb\xbf|\xff\xfe|\xfe\xff)/, '')
    .replaceAll('\0', '')
    .trimStart();
  if (start.startsWith('<')) return 'xml';
  if (start.startsWith('{')) return 'json';
  // An e-mail starts with header fields (RFC 5322 field names are printable ASCII without ':').
  if (/^(From [^\r\n]*\r?\n)?[\x21-\x39\x3b-\x7e]+:[ \t]?\S/.test(start)) return 'email';
  return 'unknown';
}

async function unpack(data: Uint8Array, fileName: string, budget: Budget, depth: number): Promise<void> {
  const fail = (error: string) => budget.push({ fileName, error, rawSize: data.length });
  if (depth > MAX_DEPTH) return fail('The file is nested too deeply (archives inside archives) to be a DMARC report.');
  switch (sniff(data)) {
    case 'gzip':
      return unpackGzip(data, fileName, budget, depth);
    case 'zip':
      return unpackZip(data, fileName, budget, depth);
    case 'email':
      return unpackEmail(data, fileName, budget, depth);
    case 'json':
      return fail(
        isTlsReport(data)
          ? 'This is an SMTP TLS report (RFC 8460), not a DMARC aggregate report; TLS reports are not imported here.'
          : 'The file is JSON, not a DMARC aggregate report (which is XML).',
      );
    default:
      // XML, or something unrecognised: the parser gives the precise error either way.
      budget.push({ fileName, bytes: data });
  }
}

async function unpackGzip(data: Uint8Array, fileName: string, budget: Budget, depth: number): Promise<void> {
  let read: { inflated: Buffer; ignoredBytes: number };
  try {
    read = await gunzipMembers(data, budget);
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw bombError(budget.limit);
    budget.push({ fileName, error: `The gzip file is damaged: ${(err as Error).message}.`, rawSize: data.length });
    return;
  }
  const first = budget.parts.length;
  await unpack(read.inflated, fileName.replace(/\.gz$/i, ''), budget, depth + 1);
  if (read.ignoredBytes === 0) return;
  const warning = `Ignored ${read.ignoredBytes} stray byte${read.ignoredBytes === 1 ? '' : 's'} after the end of the gzip data, as gzip does.`;
  for (const part of budget.parts.slice(first)) if (part.error === undefined) part.warning ??= warning;
}

// With `info`, zlib also hands back its engine, whose bytesWritten is the input it consumed (the
// @types/node signatures do not model this documented form).
const inflateRawWithInfo = promisify(inflateRaw) as unknown as (
  data: Uint8Array,
  options: ZlibOptions,
) => Promise<{ buffer: Buffer; engine: Zlib }>;

/**
 * The gzip members of `data` (RFC 1952), inflated and joined, and how many bytes after the last
 * member were ignored. Why not zlib's gunzip: it reads concatenated members but fails ("incorrect
 * header check") on any other bytes after a complete member, which gzip(1) and Python ignore, and
 * real reports carry them (a Mimecast attachment ends in CRLF). zlib cannot be told to stop after a
 * member, so the short header is read here, the deflate data is inflated raw (which stops at its
 * end and says how much input that took), and the trailer's CRC-32 and length are checked as
 * gunzip checks them: a cut or corrupt member still fails. Each member may inflate only to what is
 * left of the budget (maxOutputLength), so a bomb is never held in memory.
 */
async function gunzipMembers(data: Uint8Array, budget: Budget): Promise<{ inflated: Buffer; ignoredBytes: number }> {
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const members: Buffer[] = [];
  let at = 0;
  do {
    const start = gzipDataStart(view, at);
    const { buffer, engine } = await inflateRawWithInfo(view.subarray(start), {
      maxOutputLength: Math.max(1, budget.remaining),
      info: true,
    });
    budget.take(buffer.length);
    const end = start + engine.bytesWritten;
    if (end + 8 > view.length) throw new Error('unexpected end of file');
    if (view.readUInt32LE(end) !== crc32(buffer)) throw new Error('incorrect data check');
    if (view.readUInt32LE(end + 4) !== buffer.length % 2 ** 32) throw new Error('incorrect length check');
    members.push(buffer);
    at = end + 8;
  } while (sniff(view.subarray(at)) === 'gzip');
  return { inflated: members.length === 1 ? members[0] : Buffer.concat(members), ignoredBytes: view.length - at };
}

const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;

/** Where the deflate data of the gzip member at `at` starts, after its header (RFC 1952 section 2.3). */
function gzipDataStart(data: Buffer, at: number): number {
  // zlib's own wording, so a damaged file reads the same whichever of us notices.
  const cut = () => new Error('unexpected end of file');
  if (at + 10 > data.length) throw cut();
  if (data[at + 2] !== 8) throw new Error('unknown compression method');
  const flags = data[at + 3];
  if (flags & 0xe0) throw new Error('unknown header flags set');
  let pos = at + 10;
  if (flags & FEXTRA) {
    if (pos + 2 > data.length) throw cut();
    pos += 2 + data.readUInt16LE(pos);
  }
  for (const field of [FNAME, FCOMMENT]) {
    if (!(flags & field)) continue;
    // A zero-terminated string.
    const end = data.indexOf(0, pos);
    if (end < 0) throw cut();
    pos = end + 1;
  }
  if (flags & FHCRC) {
    if (pos + 2 > data.length) throw cut();
    if (data.readUInt16LE(pos) !== (crc32(data.subarray(at, pos)) & 0xffff)) throw new Error('header crc mismatch');
    pos += 2;
  }
  if (pos > data.length) throw cut();
  return pos;
}

async function unpackZip(data: Uint8Array, fileName: string, budget: Budget, depth: number): Promise<void> {
  const entries: { name: string; chunks: Uint8Array[]; done: boolean; error?: string }[] = [];
  let over = false;
  const unzip = new Unzip((file) => {
    // Only .xml entries are reports; anything else in the archive is not read at all.
    if (!file.name.toLowerCase().endsWith('.xml')) return;
    budget.checkCount(entries.length + 1);
    const entry: (typeof entries)[number] = { name: file.name.split('/').pop() || file.name, chunks: [], done: false };
    entries.push(entry);
    file.ondata = (err, chunk, final) => {
      if (err) {
        entry.error = err.message;
        return;
      }
      budget.used += chunk.length;
      if (budget.used > budget.limit) {
        over = true;
        file.terminate();
        return;
      }
      entry.chunks.push(chunk);
      entry.done = final;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  let damaged: string | undefined;
  try {
    for (let i = 0; i < data.length && !over; i += ZIP_SLICE_BYTES)
      unzip.push(data.subarray(i, i + ZIP_SLICE_BYTES), i + ZIP_SLICE_BYTES >= data.length);
  } catch (err) {
    if (err instanceof AppError) throw err;
    damaged = (err as Error).message;
  }
  if (over) throw bombError(budget.limit);
  if (entries.length === 0) {
    const error = damaged
      ? `The zip archive is damaged: ${damaged}.`
      : 'The zip archive holds no .xml file, so no DMARC report.';
    budget.push({ fileName, error, rawSize: data.length });
    return;
  }
  for (const entry of entries) {
    if (entry.error || !entry.done) {
      budget.push({
        fileName: entry.name,
        error: `The zip archive is damaged: ${entry.error ?? damaged ?? 'the file is cut short'}.`,
        rawSize: 0,
      });
    } else {
      // Already counted against the budget as it was inflated.
      await unpack(Buffer.concat(entry.chunks), entry.name, budget, depth + 1);
    }
  }
}

const REPORT_ATTACHMENT = /\.(xml|gz|zip)$/i;
const REPORT_TYPES = /(xml|gzip|zip|octet-stream)/i;

async function unpackEmail(data: Uint8Array, fileName: string, budget: Budget, depth: number): Promise<void> {
  let mail: ParsedMail;
  try {
    mail = await simpleParser(Buffer.from(data), { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
  } catch (err) {
    budget.push({ fileName, error: `The e-mail could not be read: ${(err as Error).message}.`, rawSize: data.length });
    return;
  }
  // A failure report (RFC 6591 / RFC 9991) is known by its ARF part, whatever the failed message it carries holds.
  const feedback = mail.attachments.find((a) => a.contentType === 'message/feedback-report');
  if (feedback) {
    const arf = readFeedbackReport(feedback.content);
    // Other feedback types (abuse complaints and the like) are no DMARC report: nobody is told of them.
    const failure = arf.feedbackType === null || arf.feedbackType === 'auth-failure';
    const failureReport = { arf, mailFrom: mail.from?.value[0]?.address ?? null };
    budget.push({
      fileName,
      error: describeFailureReport(arf),
      rawSize: data.length,
      ...(failure && { failureReport }),
    });
    return;
  }
  const candidates = mail.attachments.filter(
    (a) =>
      REPORT_ATTACHMENT.test(a.filename ?? '') ||
      REPORT_TYPES.test(a.contentType) ||
      ['gzip', 'zip'].includes(sniff(a.content)),
  );
  if (candidates.length === 0) {
    const error = isFailureReport(mail)
      ? 'The e-mail is a DMARC failure (forensic) report, not an aggregate report; failure reports are not imported here.'
      : 'The e-mail has no DMARC report attached (an .xml, .xml.gz or .zip file).';
    budget.push({ fileName, error, rawSize: data.length });
    return;
  }
  for (const attachment of candidates) {
    await unpack(attachment.content, attachment.filename ?? `${fileName} (attachment)`, budget, depth + 1);
  }
}

/** A failure report without an ARF part to read: known by its report type or its subject. */
function isFailureReport(mail: ParsedMail): boolean {
  const type = mail.headers.get('content-type') as { params?: Record<string, string> } | undefined;
  return (
    type?.params?.['report-type'] === 'feedback-report' || /\b(failure|forensic) report\b/i.test(mail.subject ?? '')
  );
}

function isTlsReport(data: Uint8Array): boolean {
  try {
    const json = JSON.parse(Buffer.from(data).toString('utf8')) as Record<string, unknown>;
    return typeof json === 'object' && json !== null && 'policies' in json && 'organization-name' in json;
  } catch {
    return false;
  }
}
