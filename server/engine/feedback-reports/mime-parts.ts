/*
 * Just enough MIME (RFC 2045, 2046) to take a feedback report apart: its header block, and the parts of a
 * multipart body, each with its own headers and decoded content. mailparser is not used for this because it
 * folds an attached message/rfc822 into the text of the whole, losing the original's header fields, which are
 * what a complaint is attributed by. Text is handled as latin1 (one char per byte) until a value is read.
 */

export interface MimeEntity {
  /** Unfolded header fields, names lower-cased, in the order written. */
  fields: [name: string, value: string][];
  /** The body as sent (still transfer-encoded). */
  body: string;
}

/** A part's media type, lower-cased ('text/plain' when it names none, RFC 2045 section 5.2), and its parameters. */
export interface ContentType {
  type: string;
  params: Record<string, string>;
}

/** Splits an entity at its first empty line: the header fields above it, unfolded, and the body below. */
export function readEntity(text: string): MimeEntity {
  const end = /\r?\n\r?\n/.exec(text);
  const head = end ? text.slice(0, end.index) : text;
  const body = end ? text.slice(end.index + end[0].length) : '';
  const fields: [string, string][] = [];
  for (const line of head.replace(/\r?\n(?=[ \t])/g, ' ').split(/\r?\n/)) {
    const field = /^([\x21-\x39\x3b-\x7e]+)[ \t]*:(.*)$/.exec(line);
    if (field) fields.push([field[1].toLowerCase(), field[2].trim()]);
  }
  return { fields, body };
}

/** Every value of a field, in order. */
export const fieldValues = (entity: MimeEntity, name: string) =>
  entity.fields.filter(([n]) => n === name).map(([, value]) => value);

/** The first value of a field, or null. */
export const fieldValue = (entity: MimeEntity, name: string) => fieldValues(entity, name)[0] ?? null;

export function contentTypeOf(entity: MimeEntity): ContentType {
  const [type, ...rest] = (fieldValue(entity, 'content-type') ?? 'text/plain').split(';');
  const params: Record<string, string> = {};
  for (const param of rest) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    params[param.slice(0, eq).trim().toLowerCase()] = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return { type: type.trim().toLowerCase() || 'text/plain', params };
}

/** The body parts of a multipart entity (RFC 2046 section 5.1.1); none when it is not multipart or has no boundary. */
export function multipartParts(entity: MimeEntity): MimeEntity[] {
  const { type, params } = contentTypeOf(entity);
  if (!type.startsWith('multipart/') || !params.boundary) return [];
  const delimiter = `--${params.boundary}`;
  const parts: MimeEntity[] = [];
  let current: string[] | null = null;
  for (const line of entity.body.split(/\r?\n/)) {
    if (line.startsWith(delimiter)) {
      if (current) parts.push(readEntity(current.join('\r\n')));
      if (line.slice(delimiter.length).startsWith('--')) return parts;
      current = [];
    } else current?.push(line);
  }
  if (current) parts.push(readEntity(current.join('\r\n')));
  return parts;
}

/** The entity and, depth first, every part inside it, nested multiparts included (not inside attached messages). */
export function allParts(entity: MimeEntity, depth = 0): MimeEntity[] {
  // A report nests two or three levels; deeper is not a report worth reading.
  if (depth > 4) return [entity];
  return [entity, ...multipartParts(entity).flatMap((part) => allParts(part, depth + 1))];
}

/** The body with its Content-Transfer-Encoding undone, as latin1 text. */
export function decodedBody(entity: MimeEntity): string {
  const encoding = (fieldValue(entity, 'content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64')
    return Buffer.from(entity.body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('latin1');
  if (encoding === 'quoted-printable')
    return entity.body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return entity.body;
}

/** Latin1 text (bytes) read as UTF-8, as header fields written in UTF-8 (RFC 6532) are. */
export const utf8 = (latin1: string) => Buffer.from(latin1, 'latin1').toString('utf8');
