/**
 * Bytes of an XML file to text, a piece at a time. Reports are UTF-8 in practice; a declared single-byte encoding
 * (ISO-8859-1, windows-1252, ...) or a UTF-16 byte order mark is honoured. Invalid UTF-8 is read as parsedmarc
 * reads it, each bad byte as U+FFFD, so the report is not lost; the report carries a warning that says where
 * the first bad byte was, so mangled names are not taken as written (ADR 017).
 */
const DECLARED_ENCODING = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/;

/**
 * The decoder for an XML file, chosen by its first bytes (a byte order mark, or the declaration), for a
 * file decoded a piece at a time. A UTF-8 one is fatal, so that bad bytes are noticed: `decode(piece, { stream: true })`
 * throws on them, and the caller goes on with replacingDecoder (replacedUtf8 gives the warning).
 */
export function xmlTextDecoder(
  head: Uint8Array,
): { ok: true; decoder: InstanceType<typeof TextDecoder> } | { ok: false; error: string } {
  if (head[0] === 0xff && head[1] === 0xfe) return { ok: true, decoder: new TextDecoder('utf-16le') };
  if (head[0] === 0xfe && head[1] === 0xff) return { ok: true, decoder: new TextDecoder('utf-16be') };
  // The declaration is ASCII, so reading the first bytes as latin1 is enough to find it.
  const declared = DECLARED_ENCODING.exec(Buffer.from(head.subarray(0, 200)).toString('latin1'))?.[1]?.toLowerCase();
  if (declared && !['utf-8', 'utf8', 'us-ascii', 'ascii'].includes(declared)) {
    const decoder = tryDecoder(declared);
    if (!decoder)
      return {
        ok: false,
        error: `The file declares the character encoding "${declared}", which is not supported; send it as UTF-8.`,
      };
    return { ok: true, decoder };
  }
  return { ok: true, decoder: new TextDecoder('utf-8', { fatal: true }) };
}

/** The decoder to go on with once bad UTF-8 was found: each bad byte becomes U+FFFD. */
export const replacingDecoder = () => new TextDecoder('utf-8');

/** The fatal decoder failed on `bytes`, a piece of the file after `linesBefore` lines: the warning the report carries. */
export function replacedUtf8(bytes: Uint8Array, linesBefore: number): string {
  return `The file is not valid UTF-8 text (the first bad byte is on line ${linesBefore + firstBadUtf8Line(bytes)}): bad bytes were read as "\uFFFD", so names with them may not be as the reporter wrote them.`;
}

/**
 * The bytes at the end of `bytes` that start a UTF-8 character and do not finish it: what a streaming decoder holds
 * back for the next piece, and so what a decoder taking over after a failure must be given again.
 */
export function unfinishedUtf8(bytes: Uint8Array): Uint8Array {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.subarray(bytes.length - back) : new Uint8Array(0);
  }
  return new Uint8Array(0);
}

function tryDecoder(label: string): InstanceType<typeof TextDecoder> | undefined {
  try {
    return new TextDecoder(label);
  } catch {
    return undefined;
  }
}

/** Only called on failure, so decoding line by line a second time costs nothing in the normal case. */
function firstBadUtf8Line(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    try {
      decoder.decode(bytes.subarray(start, i));
    } catch {
      return line;
    }
    line++;
    start = i + 1;
  }
  return line - 1;
}
