import { canonicalWord, DISGUISE, LEET } from './normalise';

/**
 * Cuts text into words and gives each its canonical key (normalise.ts), keeping where it was
 * written. Spaced-out letters ("v i a g r a", "c.a.s.h") become one word; a word cut by punctuation
 * ("vi.agra") is also read joined. One hand-written pass over the characters (a table says which
 * characters make words), then one over the pieces: linear, and no regex runs per character.
 */

export interface Word {
  /** Canonical form, for matching only (see Canonical.key). */
  key: string;
  /** Where the word is in the text it was read from: [start, end). */
  start: number;
  end: number;
  /** As written. */
  text: string;
  /** It has a letter (a number or a lone "$" has none). */
  hasLetter: boolean;
  /** DISGUISE flags. */
  disguises: number;
  /** Latin letters mixed in one word with letters of another script made to look Latin. */
  mixedScript: boolean;
  /** Digits only (amounts, years): matched by "#" in a phrase. */
  isNumber: boolean;
}

export interface ReadText {
  words: Word[];
  /** "vi.agra" read as one word, beside its pieces in `words`; only single-word phrases are looked up in them. */
  joined: Word[];
}

/** No word is longer; a longer run of letters is noise (or an attack on the matcher) and matches nothing. */
const MAX_WORD_CHARS = 64;
/** Pieces longer than this are words in their own right ("well-known", "www.example"), not a cut word. */
const MAX_CUT_PIECE = 6;
const MAX_JOINED_LETTERS = 20;
/** Not part of a word at its edges: "now!!!", "'quoted'", "@name", padding. */
const EDGE_CHARS = "!'’|@\u00AD\u180E\u200B\u200C\u200D\u200E\u200F\u2060\u2061\u2062\u2063\u2064\uFEFF";
/** A spaced-out letter is followed by exactly one of these before the next one. */
const SPACING_CHARS = ' \t.-_*~+·•';
/** Pieces of one word cut by one of these ("vi.agra") are also read joined. */
const CUTTING_CHARS = '.-_*~+·•';

// What a character is to a word: letters, digits, and the rest that words are made of (marks, the
// symbols leetspeak uses for letters, apostrophes, invisible characters, so that "vi\u200Bagra"
// stays one word). Worked out once per character and kept in a table.
const SEPARATOR = 1;
const LETTER = 2;
const DIGIT = 3;
const PART = 4;
const WORD_PART = /^[\p{M}@$€!|'’\u00AD\u180E\u200B-\u200F\u2060-\u2064\uFEFF]$/u;
const bmpClasses = new Uint8Array(0x10000);
const astralClasses = new Map<number, number>();

function classify(ch: string): number {
  if (/^\p{L}$/u.test(ch)) return LETTER;
  if (/^\p{N}$/u.test(ch)) return DIGIT;
  return WORD_PART.test(ch) ? PART : SEPARATOR;
}

/** The class of the character (code point) `cp`. */
function classOf(cp: number): number {
  if (cp <= 0xffff) {
    let kind = bmpClasses[cp];
    if (kind === 0) bmpClasses[cp] = kind = classify(String.fromCharCode(cp));
    return kind;
  }
  let kind = astralClasses.get(cp);
  if (kind === undefined) astralClasses.set(cp, (kind = classify(String.fromCodePoint(cp))));
  return kind;
}

/** The code point at `i`: a surrogate pair read as one, a lone surrogate as itself. */
function codePointAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code >= 0xd800 && code <= 0xdbff ? text.codePointAt(i)! : code;
}

/** A run of word characters, made a Word in place once its key is known (one object per word). */
type Piece = Word & { numeric: boolean };

/** Every word of `text`, in order, with spaced-out letters joined and cut words also read whole. */
export function readWords(text: string): ReadText {
  const pieces = cutPieces(text);
  const words: Word[] = [];
  const joined: Word[] = [];
  for (let i = 0; i < pieces.length;) {
    if (isSingle(pieces[i])) {
      const run = singlesRun(text, pieces, i);
      if (run.spaced) {
        words.push(joinPieces(pieces.slice(i, i + run.length), DISGUISE.spaced));
        i += run.length;
        continue;
      }
      // A run of singles that is not a spaced word has no spaced word inside it either: read them one
      // by one and move past all of them, so a long run is scanned once, not once per letter.
      for (const end = i + run.length; i < end; i++) readPiece(text, pieces, i, words, joined);
      continue;
    }
    readPiece(text, pieces, i, words, joined);
    i++;
  }
  return { words, joined };
}

/** The maximal runs of word characters, trimmed of edge punctuation, with digit groups ("5,000,000") joined. */
function cutPieces(text: string): Piece[] {
  const pieces: Piece[] = [];
  for (let i = 0; i < text.length;) {
    let end = i;
    let hasLetter = false;
    let hasDigit = false;
    while (end < text.length) {
      const cp = codePointAt(text, end);
      const kind = classOf(cp);
      if (kind === SEPARATOR) break;
      if (kind === LETTER) hasLetter = true;
      else if (kind === DIGIT) hasDigit = true;
      end += cp > 0xffff ? 2 : 1;
    }
    if (end === i) {
      i += codePointAt(text, i) > 0xffff ? 2 : 1;
      continue;
    }
    addPiece(text, pieces, i, end, hasLetter, hasDigit);
    i = end;
  }
  for (const piece of pieces) piece.text = text.slice(piece.start, piece.end);
  return pieces;
}

function addPiece(
  text: string,
  pieces: Piece[],
  from: number,
  to: number,
  hasLetter: boolean,
  hasDigit: boolean,
): void {
  // Trimmed with index loops: a regex anchored at the end ("[!]+$") backtracks quadratically on "!!!…!a".
  let start = from;
  let end = to;
  while (start < end && EDGE_CHARS.includes(text[start])) start++;
  while (end > start && EDGE_CHARS.includes(text[end - 1])) end--;
  // "friend's" is "friend": the phrase lists have no possessives.
  if (
    end - start > 2 &&
    (text[end - 1] === 's' || text[end - 1] === 'S') &&
    (text[end - 2] === "'" || text[end - 2] === '’')
  ) {
    end -= 2;
    hasLetter = /\p{L}/u.test(text.slice(start, end));
  }
  if (end <= start) return;
  const numeric = !hasLetter && hasDigit;
  // "$5,000,000.00" is one number, not four: digit groups one "," or "." apart are joined.
  const last = pieces.at(-1);
  const separator = text[start - 1];
  if (
    last?.numeric &&
    numeric &&
    last.end === start - 1 &&
    (separator === ',' || separator === '.') &&
    isAsciiDigit(text.charCodeAt(start))
  ) {
    last.end = end;
    return;
  }
  pieces.push({
    key: '',
    start,
    end,
    text: '',
    hasLetter,
    numeric,
    disguises: 0,
    mixedScript: false,
    isNumber: !hasLetter,
  });
}

function readPiece(text: string, pieces: Piece[], i: number, words: Word[], joined: Word[]): void {
  const piece = pieces[i];
  words.push(toWord(piece));
  const next = pieces[i + 1];
  if (next !== undefined && piece.hasLetter && gapIs(text, piece, next, CUTTING_CHARS)) {
    const cut = cutRun(text, pieces, i);
    if (cut > 1) joined.push(joinPieces(pieces.slice(i, i + cut), DISGUISE.separators));
  }
}

function toWord(piece: Piece): Word {
  if (piece.text.length > MAX_WORD_CHARS) return piece; // key '': matches nothing
  if (!piece.hasLetter) {
    piece.key = isAsciiNumber(piece.text) ? piece.text : piece.text.normalize('NFKC').replace(/\D/g, '');
    return piece;
  }
  const c = canonicalWord(piece.text);
  piece.key = c.key;
  piece.disguises = c.disguises;
  piece.mixedScript = c.mixedScript;
  return piece;
}

function isAsciiNumber(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isAsciiDigit(text.charCodeAt(i))) return false;
  return true;
}

function joinPieces(run: Piece[], how: number): Word {
  const text = run.map((p) => p.text).join('');
  const c = canonicalWord(text);
  const [first, last] = [run[0], run[run.length - 1]];
  return {
    key: c.key,
    start: first.start,
    end: last.end,
    text,
    hasLetter: true,
    disguises: c.disguises | how,
    mixedScript: c.mixedScript,
    isNumber: false,
  };
}

const isAsciiDigit = (code: number) => code >= 48 && code <= 57;

/** One letter, or one character leetspeak uses for a letter. */
function isSingle(p: Piece): boolean {
  const length = p.end - p.start;
  if (length === 1) return p.hasLetter || p.text in LEET;
  return length === 2 && p.hasLetter && p.text.codePointAt(0)! > 0xffff; // one astral letter
}

/** The single letters from `i` on, one spacing character apart; a spaced word when at least 3 of them, 2 of them letters. */
function singlesRun(text: string, pieces: Piece[], i: number): { length: number; spaced: boolean } {
  let n = 0;
  let letters = 0;
  while (
    i + n < pieces.length &&
    isSingle(pieces[i + n]) &&
    (n === 0 || gapIs(text, pieces[i + n - 1], pieces[i + n], SPACING_CHARS))
  ) {
    if (pieces[i + n].hasLetter) letters++;
    n++;
  }
  return { length: n, spaced: n >= 3 && letters >= 2 };
}

/** How many short pieces from `i` on are one word cut by punctuation ("vi.agra"), or 0. Reads at most MAX_JOINED_LETTERS letters ahead. */
function cutRun(text: string, pieces: Piece[], i: number): number {
  let n = 0;
  let letters = 0;
  while (
    i + n < pieces.length &&
    pieces[i + n].text.length <= MAX_CUT_PIECE &&
    pieces[i + n].hasLetter &&
    (n === 0 || gapIs(text, pieces[i + n - 1], pieces[i + n], CUTTING_CHARS))
  ) {
    letters += pieces[i + n].text.length;
    if (letters > MAX_JOINED_LETTERS) return 0;
    n++;
  }
  return n >= 2 ? n : 0;
}

function gapIs(text: string, before: Piece, after: Piece, allowed: string): boolean {
  return after.start - before.end === 1 && allowed.includes(text[before.end]);
}
