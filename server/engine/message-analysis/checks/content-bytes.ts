import { pass, problem } from './content-rules';
import type { AnalysisFinding } from './finding';

/**
 * Bytes no well-formed message carries: NUL anywhere, line ends other than CRLF (RFC 5322 2.3), and
 * text a part declares as UTF-8 but that does not decode (mailparser leaves U+FFFD for each bad
 * sequence). Receivers reject such mail or rewrite it, which breaks DKIM; bare LF is also the raw
 * material of SMTP smuggling, so Gmail and Microsoft refuse it.
 */
export function checkMessageBytes(raw: Buffer, decodedParts: (string | null)[]): AnalysisFinding {
  const seen: string[] = [];
  if (raw.includes(0)) seen.push('NUL bytes');
  const bare = bareLineEnds(raw);
  if (bare)
    seen.push(`${bare} line ${bare === 1 ? 'end' : 'ends'} that ${bare === 1 ? 'is' : 'are'} not CRLF (bare LF or CR)`);
  if (decodedParts.some((part) => part?.includes('\uFFFD')))
    seen.push('text that is not valid in its declared character set');
  if (seen.length === 0) return pass('content.well-formed-bytes', 'The message is made of well-formed lines and text');
  return problem(
    'content.malformed-bytes',
    'The message contains bytes that mail servers reject or rewrite',
    `Found ${seen.join(', ')}.`,
    'Send through a standard mail library or your ESP, which encode every part (quoted-printable or base64) and end every line with CRLF; never paste binary or mis-encoded text into a text part.',
  );
}

/** Counts LFs without a CR before them and CRs without an LF after them (one pass, counted up to 1,000). */
function bareLineEnds(raw: Buffer): number {
  let count = 0;
  for (let i = raw.indexOf(10); i !== -1 && count < 1000; i = raw.indexOf(10, i + 1))
    if (i === 0 || raw[i - 1] !== 13) count++;
  for (let i = raw.indexOf(13); i !== -1 && count < 1000; i = raw.indexOf(13, i + 1)) if (raw[i + 1] !== 10) count++;
  return count;
}
