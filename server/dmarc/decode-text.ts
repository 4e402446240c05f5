/**
 * Bytes of an XML file to text, a piece at a time. Reports are UTF-8 in practice; a declared single-byte encoding
 * (ISO-8859-1, windows-1252, ...) or a UTF-16 byte order mark is honoured. Invalid UTF-8 is an
 * error, not replacement characters: a report with mangled names must not be stored as if fine.
 */
const DECLARED_ENCODING = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/;

/**
 * The decoder for an XML file, chosen by its first bytes (a byte order mark, or the declaration), for a
 * file decoded a piece at a time: `decode(piece, { stream: true })` throws on invalid UTF-8 (invalidUtf8 says where).
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

/** The decoder failed on `bytes`, a piece of the file after `linesBefore` lines. */
export function invalidUtf8(bytes: Uint8Array, linesBefore: number): { ok: false; error: string } {
  return {
    ok: false,
    error: `The file is not valid UTF-8 text (the first bad byte is on line ${linesBefore + firstBadUtf8Line(bytes)}).`,
  };
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
