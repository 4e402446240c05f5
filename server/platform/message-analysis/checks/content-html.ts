/**
 * Reads an e-mail's HTML the way a spam filter does, without a DOM library: the text a reader
 * sees, the links with their visible text, and the images.
 *
 * The input is hostile (anyone can send us a message), so this is a single forward pass built on
 * indexOf and character tests: every character is looked at a bounded number of times, there is no
 * backtracking regex over the markup, and only the first MAX_HTML_SCAN_CHARS are read at all.
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

// Elements whose content is never shown to the reader.
const HIDDEN_CONTENT = new Set(['script', 'style', 'title', 'template']);
// Elements that separate words visually, so "<td>a</td><td>b</td>" reads as "a b", not "ab".
const BREAKS = new Set([
  'br', 'p', 'div', 'td', 'th', 'tr', 'li', 'ul', 'ol', 'table', 'tbody', 'thead', 'tfoot', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'hr', 'blockquote', 'section', 'article', 'header', 'footer', 'center', 'pre', 'dd', 'dt', 'body',
]);

export function scanHtml(input: string): HtmlScan {
  const truncated = input.length > MAX_HTML_SCAN_CHARS;
  const html = truncated ? input.slice(0, MAX_HTML_SCAN_CHARS) : input;
  const n = html.length;
  const chunks: string[] = [];
  const anchors: HtmlAnchor[] = [];
  const images: string[] = [];
  let open: { href: string; firstChunk: number } | null = null;

  const closeAnchor = () => {
    if (!open) return;
    const text = collapse(chunks.slice(open.firstChunk).join('')).slice(0, MAX_ANCHOR_TEXT);
    anchors.push({ href: open.href, text });
    open = null;
  };

  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    const textEnd = lt === -1 ? n : lt;
    if (textEnd > i) chunks.push(decodeEntities(html.slice(i, textEnd)));
    if (lt === -1) break;
    i = lt;

    if (html.startsWith('<!--', i)) {
      // Also swallows Outlook-only conditional blocks (<!--[if mso]>…<![endif]-->), which most readers never see.
      const close = html.indexOf('-->', i + 4);
      i = close === -1 ? n : close + 3;
      continue;
    }
    const next = html.charCodeAt(i + 1);
    if (next === 33 /* ! */ || next === 63 /* ? */) {
      const close = html.indexOf('>', i + 2);
      i = close === -1 ? n : close + 1;
      continue;
    }
    const closing = next === 47; /* / */
    const nameStart = i + (closing ? 2 : 1);
    if (!isAsciiLetter(html.charCodeAt(nameStart))) {
      chunks.push('<'); // A bare "<" in text, as browsers treat it.
      i += 1;
      continue;
    }
    let nameEnd = nameStart + 1;
    while (nameEnd < n && isNameChar(html.charCodeAt(nameEnd))) nameEnd++;
    const name = html.slice(nameStart, nameEnd).toLowerCase();
    const tagEnd = findTagEnd(html, nameEnd);
    i = tagEnd + 1;

    if (BREAKS.has(name)) chunks.push(' ');
    if (closing) {
      if (name === 'a') closeAnchor();
      continue;
    }
    if (HIDDEN_CONTENT.has(name)) {
      i = findClosingTag(html, name, i);
      continue;
    }
    if (name === 'a') {
      closeAnchor(); // An <a> inside an open <a> ends the first one, as in browsers.
      const href = readAttributes(html.slice(nameEnd, tagEnd)).get('href');
      if (href !== undefined) open = { href: decodeEntities(href).trim(), firstChunk: chunks.length };
    } else if (name === 'img') {
      const attrs = readAttributes(html.slice(nameEnd, tagEnd));
      if (!isTrackingPixel(attrs)) images.push(decodeEntities(attrs.get('src') ?? '').trim());
    }
  }
  closeAnchor();
  return { text: collapse(chunks.join('')), anchors, images, scannedChars: n, truncated };
}

/**
 * Index of the '>' that ends a tag, skipping quoted attribute values; n when the tag never ends.
 * A quote opens a value only right after '=' (as in browsers), so `<p don't>` still ends at '>'.
 */
function findTagEnd(html: string, from: number): number {
  let quote = 0;
  let afterEquals = false;
  for (let j = from; j < html.length; j++) {
    const c = html.charCodeAt(j);
    if (quote) {
      if (c === quote) quote = 0;
    } else if ((c === 34 || c === 39) && afterEquals) {
      quote = c;
    } else if (c === 62) {
      return j;
    }
    if (!isSpace(c)) afterEquals = c === 61;
  }
  return html.length;
}

/** Position of `</name` (any case) at or after `from`, or the end: the content of script/style is not HTML. */
function findClosingTag(html: string, name: string, from: number): number {
  let at = from;
  for (;;) {
    const j = html.indexOf('</', at);
    if (j === -1) return html.length;
    if (html.slice(j + 2, j + 2 + name.length).toLowerCase() === name && !isNameChar(html.charCodeAt(j + 2 + name.length))) return j;
    at = j + 2;
  }
}

/** Attribute names (lower case) to raw values, one linear pass over the inside of a tag. */
export function readAttributes(source: string): Map<string, string> {
  const attrs = new Map<string, string>();
  const n = source.length;
  let i = 0;
  while (i < n) {
    while (i < n && !isAttrNameChar(source.charCodeAt(i))) i++;
    const nameStart = i;
    while (i < n && isAttrNameChar(source.charCodeAt(i))) i++;
    if (i === nameStart) break;
    const name = source.slice(nameStart, i).toLowerCase();
    while (i < n && isSpace(source.charCodeAt(i))) i++;
    let value = '';
    if (source.charCodeAt(i) === 61 /* = */) {
      i++;
      while (i < n && isSpace(source.charCodeAt(i))) i++;
      const q = source.charCodeAt(i);
      if (q === 34 || q === 39) {
        const close = source.indexOf(q === 34 ? '"' : "'", i + 1);
        const end = close === -1 ? n : close;
        value = source.slice(i + 1, end);
        i = end + 1;
      } else {
        const start = i;
        while (i < n && !isSpace(source.charCodeAt(i)) && source.charCodeAt(i) !== 62) i++;
        value = source.slice(start, i);
      }
    }
    if (!attrs.has(name)) attrs.set(name, value);
  }
  return attrs;
}

function isTrackingPixel(attrs: Map<string, string>): boolean {
  const small = (v: string | undefined) => v !== undefined && /^\s*[0-2](?:px)?\s*$/i.test(v);
  return small(attrs.get('width')) && small(attrs.get('height'));
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', reg: '®', trade: '™', hellip: '…', mdash: '—',
  ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', bull: '•', middot: '·', euro: '€',
  pound: '£', yen: '¥', cent: '¢', deg: '°', times: '×', shy: '', zwnj: '', zwj: '', ensp: ' ', emsp: ' ', thinsp: ' ',
  eacute: 'é', egrave: 'è', agrave: 'à', aacute: 'á', ouml: 'ö', uuml: 'ü', auml: 'ä', szlig: 'ß', ccedil: 'ç', ntilde: 'ñ',
};

/** Each alternative is a single run of one character class: a match or a miss never backtracks past its '&'. */
const ENTITY = /&(?:#(\d+)|#[xX]([0-9a-fA-F]+)|([a-zA-Z][a-zA-Z0-9]{1,31}));?/g;

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (whole, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const digits = dec ?? hex!;
    const code = digits.length > 8 ? 0 : Number.parseInt(digits, dec !== undefined ? 10 : 16);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '';
  });
}

// Zero-width and soft characters: preheader padding ("&zwnj;&#847;" runs) that nobody reads.
// U+034F is a combining mark, so it stands apart from the class.
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u2060-\u2064\uFEFF]|\u034F/g;

function collapse(text: string): string {
  return text.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}

const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isNameChar = (c: number) => isAsciiLetter(c) || (c >= 48 && c <= 57) || c === 45 || c === 58 || c === 95;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
const isAttrNameChar = (c: number) => !Number.isNaN(c) && !isSpace(c) && c !== 61 && c !== 62 && c !== 47 && c !== 34 && c !== 39;
