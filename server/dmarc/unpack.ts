import { Inflate, Unzip, UnzipInflate } from 'fflate';
import type { ParsedMail } from 'mailparser';
import { crc32, createInflateRaw } from 'node:zlib';
import { AppError } from '../platform/errors';
import { describeFailureReport, readFeedbackReport, type FailureReport } from './failure-report';
import type { PiecewiseBytes } from './parse-aggregate';
import { zipEntryData, type ZipEntryData } from './zip-directory';

/*
 * An uploaded file -> the report files inside it. The format is told by the bytes (gzip and zip
 * magic numbers, a leading '<', RFC 5322 header lines), not by the name: mail clients and
 * reporters name files loosely. Everything decompressed in one upload shares one budget, so a
 * decompression bomb is refused as a whole, before anything is stored.
 */

/** An upload (a form: all its files together) is read whole before unpacking; compressed reports are small, so 10 MB is plenty. */
export const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;
/**
 * What one upload or mail may decompress to: a 10 MB upload or mail of gzip holds a report of about 1.5 million
 * records at most (ADR 017), and a larger expansion is a bomb.
 */
export const DECOMPRESSED_LIMIT_BYTES = 512 * 1024 * 1024;
/**
 * What one part may hold decompressed in memory: anything larger is refused, but a gzipped or zipped report's text,
 * which is decompressed again, a piece at a time, as it is read (PiecewiseBytes) once over PIECEWISE_FROM_BYTES.
 */
export const HELD_LIMIT_BYTES = 50 * 1024 * 1024;
/** What a piecewise report keeps of its start, for its encoding and header: the parser reads its header in the first 64 KB. */
const HEAD_BYTES = 64 * 1024;
/** A gzipped or zipped report's text larger than this is read piece by piece rather than held: holding it would cost more than inflating it twice. */
const PIECEWISE_FROM_BYTES = 8 * 1024 * 1024;
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
 * `received`: the file it came in, as received (the uploaded file, or the mail's attachment), kept when the
 * report cannot be read (ADR 017).
 */
export type UnpackedPart = { received?: UploadedFile } & (
  | { fileName: string; bytes: Uint8Array | PiecewiseBytes; error?: undefined; warning?: string }
  | { fileName: string; error: string; rawSize: number; failureReport?: FoundFailureReport }
);

/** One file as it was uploaded: a raw request body, or one file part of a form. */
export interface UploadedFile {
  fileName: string;
  data: Uint8Array;
}

function bombError(limit: number): AppError {
  // Not an upload's whole expansion, but one part too large to hold: the same words, as the remedy is the same.
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
    const parts = budget.parts.slice(first);
    for (const part of parts) part.received ??= file;
    unpacked.push(parts);
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
  let read: { inflated: Buffer | PiecewiseBytes; ignoredBytes: number };
  try {
    read = await gunzipMembers(data, budget);
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw bombError(budget.limit);
    budget.push({ fileName, error: `The gzip file is damaged: ${(err as Error).message}.`, rawSize: data.length });
    return;
  }
  const first = budget.parts.length;
  const name = fileName.replace(/\.gz$/i, '');
  if (read.inflated instanceof Buffer) await unpack(read.inflated, name, budget, depth + 1);
  else budget.push({ fileName: name, bytes: read.inflated });
  if (read.ignoredBytes === 0) return;
  const warning = `Ignored ${read.ignoredBytes} stray byte${read.ignoredBytes === 1 ? '' : 's'} after the end of the gzip data, as gzip does.`;
  for (const part of budget.parts.slice(first)) if (part.error === undefined) part.warning ??= warning;
}

/**
 * The gzip members of `data` (RFC 1952), inflated and joined, and how many bytes after the last
 * member were ignored. Why not zlib's gunzip: it reads concatenated members but fails ("incorrect
 * header check") on any other bytes after a complete member, which gzip(1) and Python ignore, and
 * real reports carry them (a Mimecast attachment ends in CRLF). zlib cannot be told to stop after a
 * member, so the short header is read here, the deflate data is inflated raw (which stops at its
 * end and says how much input that took), and the trailer's CRC-32 and length are checked as
 * gunzip checks them: a cut or corrupt member still fails. What is inflated counts against the
 * budget as it comes, so a bomb is never held in memory. A report larger than PIECEWISE_FROM_BYTES is
 * checked whole here but not kept: its members are inflated again, a piece at a time, when it is read.
 */
async function gunzipMembers(
  data: Uint8Array,
  budget: Budget,
): Promise<{ inflated: Buffer | PiecewiseBytes; ignoredBytes: number }> {
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const members: { start: number; end: number }[] = [];
  let held: Buffer[] | undefined = [];
  let head: Buffer | undefined;
  let length = 0;
  const take = (chunk: Buffer) => {
    budget.take(chunk.length);
    length += chunk.length;
    if (!held) return;
    held.push(chunk);
    if (length <= PIECEWISE_FROM_BYTES) return;
    // Only a report's text is read piece by piece: an archive or a mail inside must be held to be opened.
    if (length > HELD_LIMIT_BYTES) throw bombError(HELD_LIMIT_BYTES);
    const start = Buffer.concat(held, HEAD_BYTES);
    if (!['xml', 'unknown'].includes(sniff(start))) return;
    head = start;
    held = undefined;
  };
  let at = 0;
  do {
    const start = gzipDataStart(view, at);
    const member = await inflateMember(view.subarray(start), take);
    const end = start + member.consumed;
    if (end + 8 > view.length) throw new Error('unexpected end of file');
    if (view.readUInt32LE(end) !== member.crc) throw new Error('incorrect data check');
    if (view.readUInt32LE(end + 4) !== member.length % 2 ** 32) throw new Error('incorrect length check');
    members.push({ start, end });
    at = end + 8;
  } while (sniff(view.subarray(at)) === 'gzip');
  const ignoredBytes = view.length - at;
  if (held) return { inflated: held.length === 1 ? held[0] : Buffer.concat(held), ignoredBytes };
  return { inflated: { length, head: head!, pieces: () => inflatePieces(view, members) }, ignoredBytes };
}

/** One member's deflate data inflated, handed to `take` as it comes: its CRC-32, length, and the input it took. */
function inflateMember(
  deflated: Buffer,
  take: (chunk: Buffer) => void,
): Promise<{ crc: number; length: number; consumed: number }> {
  return new Promise((resolve, reject) => {
    const inflater = createInflateRaw({ chunkSize: 64 * 1024 });
    let crc = 0;
    let length = 0;
    inflater.on('data', (chunk: Buffer) => {
      crc = crc32(chunk, crc);
      length += chunk.length;
      try {
        take(chunk);
      } catch (err) {
        inflater.destroy();
        reject(err);
      }
    });
    inflater.on('error', reject);
    inflater.on('end', () => resolve({ crc, length, consumed: inflater.bytesWritten }));
    inflater.end(deflated);
  });
}

/** Input fed to the inflater at a time when a report is read piece by piece: about 1 MB of a report's XML. */
const PIECE_INPUT_BYTES = 16 * 1024;

/**
 * The members' deflate data (checked whole by gunzipMembers) inflated again as the parser asks for it, synchronously
 * (fflate), as the parser reads: a piece at a time, never the whole.
 */
function* inflatePieces(view: Buffer, members: { start: number; end: number }[]): Generator<Uint8Array> {
  for (const { start, end } of members) {
    const out: Uint8Array[] = [];
    const inflater = new Inflate((chunk) => out.push(chunk));
    for (let at = start; at < end; at += PIECE_INPUT_BYTES) {
      inflater.push(view.subarray(at, Math.min(end, at + PIECE_INPUT_BYTES)), at + PIECE_INPUT_BYTES >= end);
      yield* out.splice(0);
    }
  }
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

interface ZipReportEntry {
  name: string;
  /** What is held of it; null once it is read piece by piece instead (`piecewise`). */
  chunks: Uint8Array[] | null;
  size: number;
  done: boolean;
  error?: string;
  piecewise?: { head: Buffer; start: number; end: number };
  /** It cannot be read piece by piece (an archive inside, not deflated, no readable directory): asked once. */
  mustHold?: boolean;
}

async function unpackZip(data: Uint8Array, fileName: string, budget: Budget, depth: number): Promise<void> {
  const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const entries: ZipReportEntry[] = [];
  /** Where each entry's data sits, read from the central directory once an entry is too large to hold. */
  let directory: ZipEntryData[] | null | undefined;
  /** The limit passed: the upload's, or what one entry may hold when it cannot be read piece by piece. */
  let over: number | undefined;
  let index = -1;
  const unzip = new Unzip((file) => {
    const at = ++index;
    // Only .xml entries are reports; anything else in the archive is not read at all. Except an entry with no name,
    // which some reporters write: parsedmarc reads it (the archive's first entry, whatever its name), and so do we.
    if (file.name !== '' && !file.name.toLowerCase().endsWith('.xml')) return;
    budget.checkCount(entries.length + 1);
    const entry: ZipReportEntry = {
      name: file.name.split('/').pop() || fileName.replace(/\.zip$/i, '') || fileName,
      chunks: [],
      size: 0,
      done: false,
    };
    entries.push(entry);
    /**
     * A report's text larger than PIECEWISE_FROM_BYTES is not held: its deflated data, found through the central
     * directory, is inflated again a piece at a time as it is read, as a large gzip's is. Null when it cannot be.
     */
    const readLater = (held: Uint8Array[]) => {
      directory ??= zipEntryData(data);
      const place = directory?.[at];
      if (!place || place.method !== 8 || file.compression !== 8) return null;
      if (file.size !== undefined && file.size !== place.end - place.start) return null;
      const head = Buffer.concat(held, HEAD_BYTES);
      return ['xml', 'unknown'].includes(sniff(head)) ? { head, start: place.start, end: place.end } : null;
    };
    file.ondata = (err, chunk, final) => {
      if (err) {
        entry.error = err.message;
        return;
      }
      budget.used += chunk.length;
      entry.size += chunk.length;
      entry.done = final;
      if (budget.used > budget.limit) over = budget.limit;
      else if (entry.chunks) {
        entry.chunks.push(chunk);
        if (entry.size > PIECEWISE_FROM_BYTES && !entry.mustHold) {
          const later = readLater(entry.chunks);
          if (later) {
            entry.piecewise = later;
            entry.chunks = null;
          } else entry.mustHold = true;
        }
        if (entry.chunks && entry.size > HELD_LIMIT_BYTES) over = HELD_LIMIT_BYTES;
      }
      if (over !== undefined) file.terminate();
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  let damaged: string | undefined;
  try {
    for (let i = 0; i < data.length && over === undefined; i += ZIP_SLICE_BYTES)
      unzip.push(data.subarray(i, i + ZIP_SLICE_BYTES), i + ZIP_SLICE_BYTES >= data.length);
  } catch (err) {
    if (err instanceof AppError) throw err;
    damaged = (err as Error).message;
  }
  if (over !== undefined) throw bombError(over);
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
    } else if (entry.piecewise) {
      const { head, start, end } = entry.piecewise;
      budget.push({
        fileName: entry.name,
        bytes: { length: entry.size, head, pieces: () => inflatePieces(view, [{ start, end }]) },
      });
    } else {
      // Already counted against the budget as it was inflated.
      await unpack(Buffer.concat(entry.chunks!), entry.name, budget, depth + 1);
    }
  }
}

const REPORT_ATTACHMENT = /\.(xml|gz|zip)$/i;
const REPORT_TYPES = /(xml|gzip|zip|octet-stream)/i;

async function unpackEmail(data: Uint8Array, fileName: string, budget: Budget, depth: number): Promise<void> {
  // Loaded on first use, as every start-up dependency only some jobs need (ADR 060): it adds to each start's time to first answer.
  const { simpleParser } = await import('mailparser');
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
    const first = budget.parts.length;
    const name = attachment.filename ?? `${fileName} (attachment)`;
    await unpack(attachment.content, name, budget, depth + 1);
    for (const part of budget.parts.slice(first)) part.received ??= { fileName: name, data: attachment.content };
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
