import { SaxesParser } from 'saxes';

/*
 * Feeds text to saxes a slice at a time, so a large report is read without a tree of it, or even the
 * whole of its text, ever existing: the caller's handlers keep what they need and may stop the read early.
 */

/** Slices this long keep saxes' working strings small; larger ones measured no faster. */
export const SLICE_CHARS = 64 * 1024;

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
 * An XML read fed a piece at a time. `write` answers undefined while the read goes on; `end` says how
 * it ended: `ended` when the text ran out well-formed so far (and complete when `close` is set).
 * `invalid` holds an error sentence whose line counts in the whole text, shown in the text fed lately
 * (the last two slices: an error is shown by the few characters around it). Anything else a handler
 * throws is thrown on.
 */
export class XmlStream {
  private readonly parser: SaxesParser<{ xmlns: false; position: true }>;
  /** The text fed lately, where an error is shown; it starts at `windowStart` of the whole text. */
  private window: string;
  private windowStart = 0;
  private linesBeforeWindow = 0;
  /** How much of the window's first line lies before it (a report written on one line is one line). */
  private lineBeforeWindow = 0;
  private closing = false;

  /** `before`: the text ahead of what is fed (junk before the report), counted in lines and positions. */
  constructor(
    handlers: XmlHandlers | null,
    private readonly before = '',
  ) {
    this.window = before;
    // Namespaces off: reporters prefix elements without declaring the prefix, which saxes would refuse;
    // the caller reads the declarations from the attributes and resolves prefixes itself.
    const parser = (this.parser = new SaxesParser({ xmlns: false, position: true }));
    parser.on('error', (err) => {
      const reason = err.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
      // Kept as written, as before saxes: only the five predefined entities and character references expand.
      if (reason === 'undefined entity') return;
      throw new InvalidXml(reason, before.length + parser.position - 1, this.closing);
    });
    if (handlers) {
      parser.on('opentag', (tag) => handlers.open(tag.name, tag.attributes));
      parser.on('text', (chunk) => handlers.text(chunk));
      parser.on('cdata', (chunk) => handlers.text(chunk));
      parser.on('closetag', () => handlers.close());
    }
  }

  write(text: string): StreamOutcome | undefined {
    this.window += text;
    const cut = this.window.length - 2 * SLICE_CHARS;
    if (cut > 0) {
      const lastNewline = this.window.lastIndexOf('\n', cut - 1);
      this.linesBeforeWindow += newlines(this.window, 0, cut);
      this.lineBeforeWindow = lastNewline < 0 ? this.lineBeforeWindow + cut : cut - lastNewline - 1;
      this.windowStart += cut;
      this.window = this.window.slice(cut);
    }
    try {
      for (let at = 0; at < text.length; at += SLICE_CHARS) this.parser.write(text.slice(at, at + SLICE_CHARS));
      return undefined;
    } catch (err) {
      return this.outcome(err);
    }
  }

  end(close: boolean): StreamOutcome {
    this.closing = true;
    try {
      if (close) this.parser.close();
      return 'ended';
    } catch (err) {
      return this.outcome(err);
    }
  }

  private outcome(err: unknown): StreamOutcome {
    if (err === STOP) return 'stopped';
    if (err instanceof InvalidXml) {
      const from = Math.max(0, this.before.length - this.windowStart);
      const before = { start: this.windowStart, lines: this.linesBeforeWindow, line: this.lineBeforeWindow };
      return { invalid: err.sentence(this.window, before, from) };
    }
    throw err;
  }
}

function newlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at >= 0 && at < to; at = text.indexOf('\n', at + 1)) count++;
  return count;
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

  /**
   * `The file is not valid XML: <reason> at "<the text there>" (line L, column C).`: `text` is the part of the
   * whole text from `before.start` on, after `before.lines` whole lines and `before.line` characters of its
   * first; `from` is where in it the read began.
   */
  sentence(text: string, before: { start: number; lines: number; line: number }, from: number): string {
    let { reason } = this;
    let index = this.index - before.start;
    const found = index;
    // saxes reads an entity name up to the next ';', however far, or to the end of the text when
    // none follows: the '&' that began it is the fault, not where saxes noticed.
    const afterLastSemicolon = Math.max(from, text.lastIndexOf(';') + 1);
    if (reason === 'disallowed character in entity name') index = text.lastIndexOf('&', index);
    else if (this.atEnd && text.indexOf('&', afterLastSemicolon) >= 0) index = text.indexOf('&', afterLastSemicolon);
    if (index !== found) reason = '"&" must be written "&amp;"';
    // Most often a report cut short (a truncated attachment): saxes names the innermost element left open.
    else if (reason.startsWith('unclosed tag: '))
      reason = `it ends before <${reason.slice('unclosed tag: '.length)}> is closed`;
    index = Math.max(0, Math.min(index, text.length - 1));
    const lineStart = text.lastIndexOf('\n', index - 1) + 1;
    const line = before.lines + newlines(text, 0, lineStart) + 1;
    const column = index - lineStart + 1 + (lineStart === 0 ? before.line : 0);
    const near = this.atEnd && index === found ? '' : excerpt(text, index, lineStart);
    return `The file is not valid XML: ${reason}${near ? ` at "${near}"` : ''} (line ${line}, column ${column}).`;
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
