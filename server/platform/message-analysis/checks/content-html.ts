import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/**
 * Reads an e-mail's HTML the way a spam filter does, without building a DOM: the text a reader
 * sees, the links with their visible text, and the images.
 *
 * The input is hostile (anyone can send us a message). htmlparser2's tokenizer does the reading: a
 * single forward pass of a state machine that decodes every HTML named entity (the whole table of
 * the HTML standard, through the `entities` package) and numeric references as browsers do, in
 * text and in attribute values. Only its tokenizer is used, not its Parser: the Parser keeps the
 * open elements in an array it shifts and unshifts on every tag, quadratic on a million unclosed
 * tags. This file keeps no element stack at all, only the anchor and the hidden element being read,
 * and only the first MAX_HTML_SCAN_CHARS characters are read.
 */

/** Gmail clips at ~102 KB, so nothing past 1 M characters changes any verdict; it only costs time. */
export const MAX_HTML_SCAN_CHARS = 1_000_000;

/** Anchor text longer than this is not a URL anyone would read; keep only this much of it. */
const MAX_ANCHOR_TEXT = 500;

export interface HtmlAnchor {
  href: string;
  /** The anchor's visible text, whitespace collapsed, at most MAX_ANCHOR_TEXT characters. */
  text: string;
}

export interface HtmlScan {
  /** Visible text: no script/style/title/template/comments, entities decoded, zero-width characters dropped, whitespace collapsed. */
  text: string;
  anchors: HtmlAnchor[];
  /** `src` of every <img> a reader sees; 1×1/0×0 tracking pixels (by their width/height attributes) are left out. */
  images: string[];
  /** Characters of markup read (the whole HTML unless it was longer than MAX_HTML_SCAN_CHARS). */
  scannedChars: number;
  truncated: boolean;
}

// Elements whose content is never shown to the reader. The tokenizer reads script, style and title
// as raw text (a "<" inside them opens no tag); template content is markup, skipped here.
const HIDDEN_CONTENT = new Set(['script', 'style', 'title', 'template']);
// Elements that separate words visually, so "<td>a</td><td>b</td>" reads as "a b", not "ab".
const BREAKS = new Set([
  'br',
  'p',
  'div',
  'td',
  'th',
  'tr',
  'li',
  'ul',
  'ol',
  'table',
  'tbody',
  'thead',
  'tfoot',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'blockquote',
  'section',
  'article',
  'header',
  'footer',
  'center',
  'pre',
  'dd',
  'dt',
  'body',
]);
// The only elements whose attributes are read.
const WITH_ATTRIBUTES = new Set(['a', 'img']);

export function scanHtml(input: string): HtmlScan {
  const truncated = input.length > MAX_HTML_SCAN_CHARS;
  const html = truncated ? input.slice(0, MAX_HTML_SCAN_CHARS) : input;
  const reader = new VisibleContentReader(html);
  const tokenizer = new Tokenizer({ decodeEntities: true }, reader);
  tokenizer.write(html);
  tokenizer.end();
  return { ...reader.finish(), scannedChars: html.length, truncated };
}

/** The tokenizer's listener: turns tokens (given as positions in `html`, or decoded code points) into what a reader sees. */
class VisibleContentReader implements TokenizerCallbacks {
  private readonly chunks: string[] = [];
  private readonly anchors: HtmlAnchor[] = [];
  private readonly images: string[] = [];
  private anchor: { href: string; firstChunk: number } | null = null;
  /** The hidden element being read; `depth` counts nested <template>s. */
  private hidden: { name: string; depth: number } | null = null;
  /** The tag being read, and its attributes (lower-case names; the first of a repeated name wins) when they matter. */
  private tag = '';
  private attributes: Map<string, string> | null = null;
  private attributeName = '';
  private attributeValue = '';

  constructor(private readonly html: string) {}

  finish(): Pick<HtmlScan, 'text' | 'anchors' | 'images'> {
    this.closeAnchor(); // An anchor left open runs to the end, as in browsers.
    return { text: collapse(this.chunks.join('')), anchors: this.anchors, images: this.images };
  }

  ontext(start: number, end: number): void {
    if (!this.hidden) this.chunks.push(this.html.slice(start, end));
  }

  ontextentity(codePoint: number): void {
    if (!this.hidden) this.chunks.push(String.fromCodePoint(codePoint));
  }

  onopentagname(start: number, end: number): void {
    this.tag = this.html.slice(start, end).toLowerCase();
    this.attributes = !this.hidden && WITH_ATTRIBUTES.has(this.tag) ? new Map() : null;
  }

  onattribname(start: number, end: number): void {
    if (!this.attributes) return;
    this.attributeName = this.html.slice(start, end).toLowerCase();
    this.attributeValue = '';
  }

  onattribdata(start: number, end: number): void {
    if (this.attributes) this.attributeValue += this.html.slice(start, end);
  }

  onattribentity(codePoint: number): void {
    if (this.attributes) this.attributeValue += String.fromCodePoint(codePoint);
  }

  onattribend(): void {
    if (this.attributes && !this.attributes.has(this.attributeName)) this.attributes.set(this.attributeName, this.attributeValue);
    this.attributeValue = '';
  }

  onopentagend(): void {
    this.openTag();
  }

  // HTML ignores the "/" of <div/>: the element opens all the same (and <script/> still hides what follows).
  onselfclosingtag(): void {
    this.openTag();
  }

  onclosetag(start: number, end: number): void {
    const name = this.html.slice(start, end).toLowerCase();
    if (this.hidden) {
      if (name === this.hidden.name && --this.hidden.depth === 0) this.hidden = null;
      return;
    }
    if (BREAKS.has(name)) this.chunks.push(' ');
    if (name === 'a') this.closeAnchor();
  }

  // Comments (Outlook's <!--[if mso]>…<![endif]--> blocks included, which most readers never see),
  // CDATA, <!doctype> and <?…?> show nothing.
  oncomment(): void {}
  oncdata(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
  onend(): void {}

  private openTag(): void {
    const name = this.tag;
    if (this.hidden) {
      if (name === 'template' && this.hidden.name === 'template') this.hidden.depth++;
      return;
    }
    if (BREAKS.has(name)) this.chunks.push(' ');
    if (HIDDEN_CONTENT.has(name)) {
      this.hidden = { name, depth: 1 };
    } else if (name === 'a') {
      this.closeAnchor(); // An <a> inside an open <a> ends the first one, as in browsers.
      const href = this.attributes?.get('href');
      if (href !== undefined) this.anchor = { href: href.trim(), firstChunk: this.chunks.length };
    } else if (name === 'img' && this.attributes && !isTrackingPixel(this.attributes)) {
      this.images.push((this.attributes.get('src') ?? '').trim());
    }
  }

  private closeAnchor(): void {
    if (!this.anchor) return;
    const text = collapse(this.chunks.slice(this.anchor.firstChunk).join('')).slice(0, MAX_ANCHOR_TEXT);
    this.anchors.push({ href: this.anchor.href, text });
    this.anchor = null;
  }
}

function isTrackingPixel(attrs: Map<string, string>): boolean {
  const small = (v: string | undefined) => v !== undefined && /^\s*[0-2](?:px)?\s*$/i.test(v);
  return small(attrs.get('width')) && small(attrs.get('height'));
}

// Zero-width and soft characters: preheader padding ("&zwnj;&#847;" runs) that nobody reads.
// U+034F is a combining mark, so it stands apart from the class.
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u2060-\u2064\uFEFF]|\u034F/g;

function collapse(text: string): string {
  return text.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}
