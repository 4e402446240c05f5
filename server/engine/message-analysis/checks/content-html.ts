import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { elementLook, indistinguishable, WHITE, type Rgb } from './content-html-style';
import { INVISIBLE_CHARACTERS, wordsWithInvisibleCharacters } from './spam-content/invisible-characters';

/**
 * Reads an e-mail's HTML the way a spam filter does, without building a DOM: the text a reader
 * sees, the links with their visible text, and the images.
 *
 * The input is hostile (anyone can send us a message). htmlparser2's tokenizer does the reading: a
 * single forward pass of a state machine that decodes every HTML named entity (the whole table of
 * the HTML standard, through the `entities` package) and numeric references as browsers do, in
 * text and in attribute values. Only its tokenizer is used, not its Parser: the Parser keeps the
 * open elements in an array it shifts and unshifts on every tag, quadratic on a million unclosed
 * tags. This file keeps no element stack of its own, only the anchor and the hidden element being
 * read, the element hiding text from the reader, and at most MAX_BACKGROUNDS elements that set a
 * background colour; and only the first MAX_HTML_SCAN_CHARS characters are read.
 */

/** Gmail clips at ~102 KB, so nothing past 1 M characters changes any verdict; it only costs time. */
export const MAX_HTML_SCAN_CHARS = 1_000_000;

/** Anchor text longer than this is not a URL anyone would read; keep only this much of it. */
const MAX_ANCHOR_TEXT = 500;

/** Enough hidden text to tell a preheader from a hidden essay; the rest is not kept. */
const MAX_HIDDEN_TEXT_CHARS = 50_000;

/** Nested backgrounds deeper than this are layout tables inside layout tables; the innermost ones are not tracked. */
const MAX_BACKGROUNDS = 32;

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
  /**
   * Text in the HTML that a reader cannot see: inside an element with display:none, visibility:hidden,
   * opacity:0, the hidden attribute, a 0 height with overflow:hidden, a font of 2px or less, or a
   * text colour that cannot be told from its background (inline styles and bgcolor/color
   * attributes; classes from <style> blocks are not applied). Collapsed like `text`, at most
   * MAX_HIDDEN_TEXT_CHARS characters. A preheader hidden this way is normal; pages of it are not.
   */
  hiddenText: string;
  /** How the hidden text was hidden, each way once, in the order met ("display:none", "font-size:1px"). */
  hiddenBy: string[];
  /** Latin words of the visible text with invisible characters between their letters, as written (at most 10). */
  wordsWithInvisibleCharacters: string[];
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
// The only attributes read: links, images, and what hides text.
const READ_ATTRIBUTES = new Set(['href', 'src', 'width', 'height', 'style', 'bgcolor', 'color', 'text', 'hidden']);
// Elements with no content, so no closing tag to wait for.
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

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
  /** The outermost element hiding its text from the reader; `depth` counts nested elements of its name. */
  private concealed: { name: string; depth: number } | null = null;
  private readonly concealedChunks: string[] = [];
  private concealedChars = 0;
  private readonly hiddenBy = new Set<string>();
  /** Open elements that set a background colour, innermost last; `depth` counts nested elements of the same name. */
  private readonly backgrounds: { name: string; color: Rgb; depth: number }[] = [];
  /** The tag being read, and its attributes (lower-case names; the first of a repeated name wins) when they matter. */
  private tag = '';
  private attributes: Map<string, string> | null = null;
  private attributeName = '';
  private attributeValue = '';

  constructor(private readonly html: string) {}

  finish(): Pick<HtmlScan, 'text' | 'anchors' | 'images' | 'hiddenText' | 'hiddenBy' | 'wordsWithInvisibleCharacters'> {
    this.closeAnchor(); // An anchor left open runs to the end, as in browsers.
    const visible = this.chunks.join('');
    return {
      text: collapse(visible),
      anchors: this.anchors,
      images: this.images,
      hiddenText: collapse(this.concealedChunks.join('')),
      hiddenBy: [...this.hiddenBy],
      wordsWithInvisibleCharacters: wordsWithInvisibleCharacters(visible),
    };
  }

  ontext(start: number, end: number): void {
    if (!this.hidden) this.emit(this.html.slice(start, end));
  }

  ontextentity(codePoint: number): void {
    if (!this.hidden) this.emit(String.fromCodePoint(codePoint));
  }

  onopentagname(start: number, end: number): void {
    this.tag = this.html.slice(start, end).toLowerCase();
    this.attributes = this.hidden ? null : new Map();
  }

  onattribname(start: number, end: number): void {
    if (!this.attributes) return;
    this.attributeName = this.html.slice(start, end).toLowerCase();
    this.attributeValue = '';
  }

  onattribdata(start: number, end: number): void {
    if (this.attributes && READ_ATTRIBUTES.has(this.attributeName)) this.attributeValue += this.html.slice(start, end);
  }

  onattribentity(codePoint: number): void {
    if (this.attributes && READ_ATTRIBUTES.has(this.attributeName))
      this.attributeValue += String.fromCodePoint(codePoint);
  }

  onattribend(): void {
    if (this.attributes && READ_ATTRIBUTES.has(this.attributeName) && !this.attributes.has(this.attributeName)) {
      this.attributes.set(this.attributeName, this.attributeValue);
    }
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
    if (this.concealed?.name === name && --this.concealed.depth === 0) this.concealed = null;
    const background = this.innermostBackground(name);
    // A closing tag closes the elements opened inside it that were never closed, as in browsers.
    if (background >= 0 && --this.backgrounds[background].depth === 0) this.backgrounds.length = background;
    if (BREAKS.has(name)) this.emit(' ');
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
    if (BREAKS.has(name)) this.emit(' ');
    if (HIDDEN_CONTENT.has(name)) {
      this.hidden = { name, depth: 1 };
      return;
    }
    if (!VOID.has(name)) this.followLook(name);
    if (name === 'a') {
      this.closeAnchor(); // An <a> inside an open <a> ends the first one, as in browsers.
      const href = this.attributes?.get('href');
      if (href !== undefined) this.anchor = { href: href.trim(), firstChunk: this.chunks.length };
    } else if (name === 'img' && this.attributes && !isTrackingPixel(this.attributes)) {
      this.images.push((this.attributes.get('src') ?? '').trim());
    }
  }

  /** Text goes to what the reader sees, or, inside a concealing element, to the hidden text. */
  private emit(text: string): void {
    if (!this.concealed) {
      this.chunks.push(text);
    } else if (this.concealedChars < MAX_HIDDEN_TEXT_CHARS) {
      const kept = text.slice(0, MAX_HIDDEN_TEXT_CHARS - this.concealedChars);
      this.concealedChunks.push(kept);
      this.concealedChars += kept.length;
    }
  }

  /** Keeps count of the backgrounds around the text and starts hiding text when this element hides it. */
  private followLook(name: string): void {
    if (this.concealed?.name === name) this.concealed.depth++;
    const look = this.attributes ? elementLook(this.attributes) : null;
    const own = look?.background ?? null;
    if (own && this.backgrounds.length < MAX_BACKGROUNDS) {
      this.backgrounds.push({ name, color: own, depth: 1 });
    } else {
      const same = this.innermostBackground(name);
      if (same >= 0) this.backgrounds[same].depth++;
    }
    if (this.concealed || !look) return;
    const behind = own ?? this.backgrounds.at(-1)?.color ?? WHITE;
    const reason =
      look.concealedBy ??
      (look.color === 'transparent'
        ? 'transparent text'
        : look.color && indistinguishable(look.color, behind)
          ? 'text the colour of its background'
          : null);
    if (reason) {
      this.concealed = { name, depth: 1 };
      this.hiddenBy.add(reason);
    }
  }

  private innermostBackground(name: string): number {
    for (let i = this.backgrounds.length - 1; i >= 0; i--) if (this.backgrounds[i].name === name) return i;
    return -1;
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
function collapse(text: string): string {
  return text.replace(INVISIBLE_CHARACTERS, '').replace(/\s+/g, ' ').trim();
}
