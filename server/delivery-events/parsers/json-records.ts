import { BatchError } from './batch-error';

/** One record of a JSON batch, or why its line could not be read. */
export type JsonRecord = { value: unknown } | { error: string };

/** Records longer than this (one NDJSON line) are refused unread: KumoMTA's largest records, with headers and meta, stay far below. */
const RECORD_MAX = 64 * 1024;

/**
 * The records of a JSON batch as the MTAs post them: one JSON object (GreenArrow, Postal and
 * SMTP2GO post one event a request), an array of them (batching log hooks), or newline-delimited
 * JSON (KumoMTA and Halon's bulk HTTP queues), which arrives as text. Each NDJSON line is read on
 * its own, so one broken line is one rejected row.
 */
export function jsonRecords(body: unknown): JsonRecord[] {
  if (Array.isArray(body)) return body.map((value) => ({ value }));
  if (body !== null && typeof body === 'object') return [{ value: body }];
  if (typeof body !== 'string')
    throw new BatchError('The body must be JSON: one record, an array of records, or one record per line');
  return splitLines(body).map((line) => {
    if (line.length > RECORD_MAX) return { error: `Record longer than ${RECORD_MAX} characters` };
    try {
      return { value: JSON.parse(line) as unknown };
    } catch {
      return { error: 'Not valid JSON' };
    }
  });
}

/** The non-blank lines of a text body (CRLF or LF), each with its line ending removed. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    let line = text.slice(start, end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() !== '') lines.push(line);
    start = end + 1;
  }
  return lines;
}

/** How many rows a text batch has, counted before anything is parsed (a batch over the limit is refused unread). */
export function countLines(text: string): number {
  let n = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 13) {
        n++;
        break;
      }
    }
    start = end + 1;
  }
  return n;
}
