import { SaxesParser } from 'saxes';

/*
 * Feeds text to saxes a slice at a time, so a large report is read without a tree of it ever
 * existing: the caller's handlers keep what they need and may stop the read early.
 */

/** Slices this long keep saxes' working strings small; larger ones measured no faster. */
const SLICE_CHARS = 64 * 1024;

export interface XmlHandlers {
  /** `attributes` as written, namespace declarations (xmlns, xmlns:prefix) included. */
  open(name: string, attributes: Record<string, string>): void;
  text(text: string): void;
  close(): void;
}

/** Thrown by a handler to end the read: the caller has all it wants, and what follows is not looked at. */
export const STOP = Symbol('stop');

export type StreamOutcome = 'stopped' | 'ended' | { invalid: string };

/**
 * Reads `text` from `from` on. `ended`: the text ran out, well-formed so far (and complete when
 * `close` is set). `invalid` holds an error sentence whose position counts in the whole text, not
 * in the part fed. Anything else a handler throws is thrown on.
 */
export function streamXml(text: string, from: number, handlers: XmlHandlers | null, close: boolean): StreamOutcome {
  let closing = false;
  // Namespaces off: reporters prefix elements without declaring the prefix, which saxes would refuse;
  // the caller reads the declarations from the attributes and resolves prefixes itself.
  const parser = new SaxesParser({ xmlns: false, position: true });
  parser.on('error', (err) => {
    const reason = err.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    // Kept as written, as before saxes: only the five predefined entities and character references expand.
    if (reason === 'undefined entity') return;
    throw new InvalidXml(reason, from + parser.position - 1, closing);
  });
  if (handlers) {
    parser.on('opentag', (tag) => handlers.open(tag.name, tag.attributes));
    parser.on('text', (chunk) => handlers.text(chunk));
    parser.on('cdata', (chunk) => handlers.text(chunk));
    parser.on('closetag', () => handlers.close());
  }
  try {
    for (let at = from; at < text.length; at += SLICE_CHARS) parser.write(text.slice(at, at + SLICE_CHARS));
    closing = true;
    if (close) parser.close();
    return 'ended';
  } catch (err) {
    if (err === STOP) return 'stopped';
    if (err instanceof InvalidXml) return { invalid: err.sentence(text, from) };
    throw err;
  }
}

class InvalidXml extends Error {
  constructor(
    readonly reason: string,
    /** Where in the whole text saxes was when it failed. */
    readonly index: number,
    /** Found when the text ended (an element left open): the end of the text is nothing useful to show. */
    readonly atEnd: boolean,
  ) {
    super(reason);
  }

  /** `The file is not valid XML: <reason> at "<the text there>" (line L, column C).`, counted in the whole text. */
  sentence(text: string, from: number): string {
    let { reason, index } = this;
    // saxes reads an entity name up to the next ';', however far, or to the end of the text when
    // none follows: the '&' that began it is the fault, not where saxes noticed.
    const afterLastSemicolon = Math.max(from, text.lastIndexOf(';') + 1);
    if (reason === 'disallowed character in entity name') index = text.lastIndexOf('&', index);
    else if (this.atEnd && text.indexOf('&', afterLastSemicolon) >= 0) index = text.indexOf('&', afterLastSemicolon);
    if (index !== this.index) reason = '"&" must be written "&amp;"';
    // Most often a report cut short (a truncated attachment): saxes names the innermost element left open.
    else if (reason.startsWith('unclosed tag: '))
      reason = `it ends before <${reason.slice('unclosed tag: '.length)}> is closed`;
    index = Math.max(0, Math.min(index, text.length - 1));
    const lineStart = text.lastIndexOf('\n', index - 1) + 1;
    let line = 1;
    for (let at = text.indexOf('\n'); at >= 0 && at < lineStart; at = text.indexOf('\n', at + 1)) line++;
    const near = this.atEnd && index === this.index ? '' : excerpt(text, index, lineStart);
    return `The file is not valid XML: ${reason}${near ? ` at "${near}"` : ''} (line ${line}, column ${index - lineStart + 1}).`;
  }
}

/** The line around `index`, at most 40 characters each side: enough to find the fault in an editor. */
function excerpt(text: string, index: number, lineStart: number): string {
  const newline = text.indexOf('\n', index);
  const lineEnd = newline < 0 ? text.length : newline;
  const start = Math.max(lineStart, index - 40);
  const end = Math.min(lineEnd, index + 40);
  const shown = text.slice(start, end).trim();
  return shown && `${start > lineStart ? '…' : ''}${shown}${end < lineEnd ? '…' : ''}`;
}
