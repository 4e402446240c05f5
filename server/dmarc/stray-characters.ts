/*
 * Reporters now and then write a text value unescaped: `<org_name>AT&T</org_name>`, `<header_from>bad<xml.net</header_from>`.
 * XML forbids a bare "&" or "<" there, and a strict parser stops at the first, losing the whole report; parsedmarc
 * recovers such reports (lxml's recover mode). Here a "&" that starts no reference and a "<" that starts no markup
 * are escaped as the text passes on its way to the parser, so the parser itself stays strict, streaming and
 * refusing entity definitions for everything else. Only the <feedback> element is fed through: once it closes,
 * the rest passes as it is and is not counted. Escaping lengthens a line, so an error's column on a line with a
 * recovered character counts the escapes too; its line does not change.
 */

const REFERENCE = /&(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z_:][\w.:-]*);/y;
/** What could still become a reference, or markup, when the text ends before it is decided. */
const REFERENCE_START = /&(?:#x?[0-9a-fA-F]*|[A-Za-z_:][\w.:-]*)?$/y;
const END_TAG = /<\/([A-Za-z_:][\w.:-]*)\s*>/y;
/** A whole start tag, attributes included: `<b & c` is no tag, though it starts as one. */
const START_TAG = /<[A-Za-z_:][\w.:-]*(?:\s+[A-Za-z_:][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*\/?>/y;
/**
 * Anything that may need escaping, and any section in which "<" and "&" mean nothing: text with neither (nearly
 * every piece of every report) is passed on as it is after one search, which costs a few percent of a read
 * instead of twice its time.
 */
const NEEDS_A_LOOK =
  /&(?!(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z_:][\w.:-]*);)|<(?!\/[A-Za-z_:][\w.:-]*\s*>|[A-Za-z_:][\w.:-]*(?:\s+[A-Za-z_:][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*\/?>)/;
/** A reference or tag longer than this is not waited for: it is markup or not whatever follows. */
const LOOKAHEAD = 4096;
const NEXT_IN_TEXT = /[<&]/g;
const SECTION_ENDS = { comment: '-->', cdata: ']]>', instruction: '?>' } as const;

type State = 'text' | 'done' | keyof typeof SECTION_ENDS;

export class StrayCharacters {
  private state: State = 'text';
  /** The end of the text fed, held until what follows decides what it is. */
  private held = '';
  /** Newlines passed before the text being read, until the first recovered character is found. */
  private lines: number;
  private count = 0;
  private firstLine = 0;
  private readonly found = new Set<string>();

  /** `linesBefore`: the lines of the file before the text fed, so that a line is counted in the whole file. */
  constructor(linesBefore = 0) {
    this.lines = linesBefore;
  }

  /** The next piece of text: what of it (and of what was held) can be passed on. */
  push(text: string): string {
    return this.pass(this.held + text, false);
  }

  /** The text ended: the rest of what was held. */
  end(): string {
    return this.pass(this.held, true);
  }

  /** What was recovered, in words for the report; undefined when nothing was. */
  warning(): string | undefined {
    if (this.count === 0) return undefined;
    const which = [...this.found].map((c) => `"${c}"`).join(' and ');
    const many = this.count > 1;
    return (
      `The file is not valid XML: ${this.count.toLocaleString('en-US')} ${which} written in text without escaping ` +
      `(the first on line ${this.firstLine}) ${many ? 'were' : 'was'} read as text.`
    );
  }

  private pass(input: string, final: boolean): string {
    if (this.state === 'text') {
      // A piece ends in the middle of a tag or a reference more often than not: that end waits for the next piece.
      const end = final ? input.length : Math.min(unfinished(input, '<', '>'), unfinished(input, '&', ';'));
      const whole = input.slice(0, end);
      if (!NEEDS_A_LOOK.test(whole)) {
        this.held = input.slice(end);
        if (this.count === 0) this.lines += newlines(whole, 0, whole.length);
        return whole;
      }
    }
    const out: string[] = [];
    let at = 0;
    this.held = '';
    const hold = (from: number) => {
      this.held = input.slice(from);
      return input.length;
    };
    while (at < input.length) {
      if (this.state === 'done') {
        out.push(input.slice(at));
        break;
      }
      if (this.state !== 'text') {
        const end = SECTION_ENDS[this.state];
        const close = input.indexOf(end, at);
        if (close < 0) {
          const keep = final ? input.length : Math.max(at, input.length - end.length + 1);
          out.push(input.slice(at, keep));
          at = keep < input.length ? hold(keep) : keep;
          continue;
        }
        out.push(input.slice(at, close + end.length));
        at = close + end.length;
        this.state = 'text';
        continue;
      }
      NEXT_IN_TEXT.lastIndex = at;
      const next = NEXT_IN_TEXT.exec(input);
      const index = next ? next.index : input.length;
      out.push(input.slice(at, index));
      if (!next) break;
      const markup = next[0] === '&' ? this.reference(input, index, final) : this.markup(input, index, final);
      if (markup === undefined) {
        at = hold(index);
        continue;
      }
      if (markup === 0) {
        this.recovered(next[0], input, index);
        out.push(next[0] === '&' ? '&amp;' : '&lt;');
        at = index + 1;
        continue;
      }
      out.push(input.slice(index, index + markup));
      at = index + markup;
    }
    if (this.count === 0) this.lines += newlines(input, 0, input.length - this.held.length);
    return out.join('');
  }

  /** How long the reference at `index` is; 0: a stray "&"; undefined: not decided before the text ends. */
  private reference(input: string, index: number, final: boolean): number | undefined {
    REFERENCE.lastIndex = index;
    if (REFERENCE.exec(input)) return REFERENCE.lastIndex - index;
    return this.undecided(REFERENCE_START, input, index, final) ? undefined : 0;
  }

  /** How much of the markup at `index` is passed on (the rest of a section is read in its state); 0: a stray "<"; undefined: not decided. */
  private markup(input: string, index: number, final: boolean): number | undefined {
    const rest = (prefix: string) => input.startsWith(prefix, index);
    if (rest('<!--')) return this.enter('comment', 4);
    if (rest('<![CDATA[')) return this.enter('cdata', 9);
    if (rest('<?')) return this.enter('instruction', 2);
    END_TAG.lastIndex = index;
    const end = END_TAG.exec(input);
    if (end) {
      const name = end[1];
      if (name === 'feedback' || name.endsWith(':feedback')) this.state = 'done';
      return END_TAG.lastIndex - index;
    }
    START_TAG.lastIndex = index;
    if (START_TAG.exec(input)) return START_TAG.lastIndex - index;
    // Markup not yet whole, or "<!" cut before what it opens is known.
    if (!final && input.length - index <= LOOKAHEAD && (!input.includes('>', index) || input.length - index < 9))
      return undefined;
    // Declarations (<!DOCTYPE ...>) are refused before the text gets here; anything else after "<!" is left to the parser.
    return rest('<!') ? 2 : 0;
  }

  private undecided(start: RegExp, input: string, index: number, final: boolean): boolean {
    if (final || input.length - index > LOOKAHEAD) return false;
    start.lastIndex = index;
    return start.test(input);
  }

  private enter(state: State, length: number): number {
    this.state = state;
    return length;
  }

  private recovered(char: string, input: string, index: number): void {
    if (this.count === 0) this.firstLine = this.lines + newlines(input, 0, index) + 1;
    this.count++;
    this.found.add(char);
  }
}

/** Where the last `open` without its `close` after it starts; the text's length when there is none. */
function unfinished(text: string, open: string, close: string): number {
  const at = text.lastIndexOf(open);
  return at >= 0 && text.indexOf(close, at) < 0 ? at : text.length;
}

function newlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at >= 0 && at < to; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
