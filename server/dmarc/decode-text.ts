/**
 * Bytes of an XML file to text. Reports are UTF-8 in practice; a declared single-byte encoding
 * (ISO-8859-1, windows-1252, ...) or a UTF-16 byte order mark is honoured. Invalid UTF-8 is an
 * error, not replacement characters: a report with mangled names must not be stored as if fine.
 */
export type DecodeResult = { ok: true; text: string } | { ok: false; error: string };

const DECLARED_ENCODING = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/;

export function decodeXmlBytes(bytes: Uint8Array): DecodeResult {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { ok: true, text: new TextDecoder('utf-16le').decode(bytes) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { ok: true, text: new TextDecoder('utf-16be').decode(bytes) };
  // The declaration is ASCII, so reading the first bytes as latin1 is enough to find it.
  const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  const declared = DECLARED_ENCODING.exec(head)?.[1]?.toLowerCase();
  if (declared && !['utf-8', 'utf8', 'us-ascii', 'ascii'].includes(declared)) {
    const decoder = tryDecoder(declared);
    if (!decoder)
      return {
        ok: false,
        error: `The file declares the character encoding "${declared}", which is not supported; send it as UTF-8.`,
      };
    return { ok: true, text: decoder.decode(bytes) };
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return {
      ok: false,
      error: `The file is not valid UTF-8 text (the first bad byte is on line ${firstBadUtf8Line(bytes)}).`,
    };
  }
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
