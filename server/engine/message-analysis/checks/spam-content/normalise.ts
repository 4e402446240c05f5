import unhomoglyph from 'unhomoglyph';
import { INVISIBLE_CHARACTERS } from './invisible-characters';

/**
 * The canonical form of a word, whatever the sender did to disguise it: lower case, NFKC, no
 * accents, look-alike letters read as the Latin letter they imitate, leetspeak read as letters,
 * invisible characters dropped, "l" and "i" folded together. read-words.ts cuts text into words
 * and keeps where each was written, so a finding quotes the message as the reader saw it.
 *
 * The phrase lists go through the same function, so "m1ll10n", "ｍｉｌｌｉｏｎ" and "мillion"
 * all meet "million" without the lists spelling every variant. Which disguises a word needed is
 * kept as flags: a disguised spam word is evidence of its own.
 */

/** What had to be undone to read a word. */
export const DISGUISE = {
  /** Zero-width or soft-hyphen characters between its letters. */
  invisible: 1,
  /** Full-width, mathematical or other compatibility forms of Latin letters (NFKC undoes them). */
  styled: 2,
  /** Letters of another script that look like Latin ones (Cyrillic "а", Greek "ο"). */
  lookalike: 4,
  /** Accents on letters that carry none in the phrase ("vìagra"). */
  accents: 8,
  /** Digits or symbols standing for letters ("fr33", "c@sh"). */
  leet: 16,
  /** Single letters spaced out or dotted ("v i a g r a", "c.a.s.h"). */
  spaced: 32,
  /** A word cut by punctuation ("vi.agra", "ca-sino"). */
  separators: 64,
} as const;

/** Disguises a reader cannot see at all: the text looks like the plain word. */
export const LOOKALIKE_DISGUISES = DISGUISE.invisible | DISGUISE.styled | DISGUISE.lookalike;
/** Disguises a reader sees but a word filter does not. */
export const OBFUSCATION_DISGUISES = DISGUISE.accents | DISGUISE.leet | DISGUISE.spaced | DISGUISE.separators;

const NON_ASCII = /[\u0080-\uFFFF]/;
const ASCII_LETTERS = /[a-z]/gi;

/** Digits and symbols that stand for letters in leetspeak. */
export const LEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '@': 'a',
  $: 's',
  '€': 'e',
  '!': 'i',
  '|': 'i',
};
const LEET_CHARS = /[0-9@$€!|]/g;

export interface Canonical {
  /** For matching only (it folds "l" into "i", so it is never shown). */
  key: string;
  /** DISGUISE flags. */
  disguises: number;
  /** Latin letters mixed in one word with letters of another script made to look Latin. */
  mixedScript: boolean;
}

// Words repeat (a 100 KB message has a few thousand distinct ones): each is worked out once. Bounded,
// so a message of a million distinct words cannot grow it without end.
const cache = new Map<string, Canonical>();
const MAX_CACHE = 50_000;

/** The canonical key of one word as written, and what had to be undone to get it. */
export function canonicalWord(piece: string): Canonical {
  let known = cache.get(piece);
  if (known === undefined) {
    known = canonicalise(piece);
    if (cache.size >= MAX_CACHE) cache.clear();
    cache.set(piece, known);
  }
  return known;
}

function canonicalise(piece: string): Canonical {
  let disguises = 0;
  let s = piece;
  const visible = s.replace(INVISIBLE_CHARACTERS, '');
  if (visible !== s) disguises |= DISGUISE.invisible;
  s = visible;

  const compatible = s.normalize('NFKC');
  if (compatible !== s && NON_ASCII.test(s) && asciiLetterCount(compatible) > asciiLetterCount(s))
    disguises |= DISGUISE.styled;
  s = compatible.toLowerCase();

  const bare = s.normalize('NFD').replace(/\p{M}/gu, '');
  if (bare !== s) disguises |= DISGUISE.accents;
  s = bare;

  let mixedScript = false;
  if (NON_ASCII.test(s)) {
    const hasLatin = /[a-z]/.test(s);
    let out = '';
    for (const ch of s) {
      const latin = ch < '\x80' ? null : lookalikeOf(ch);
      out += latin ?? ch;
      if (latin !== null) {
        disguises |= DISGUISE.lookalike;
        if (hasLatin) mixedScript = true;
      }
    }
    s = out;
  }

  if (/[a-z]/.test(s)) {
    const letters = s.replace(LEET_CHARS, (c) => LEET[c] ?? c);
    if (letters !== s) disguises |= DISGUISE.leet;
    s = letters;
  }
  // "l", "1", "I", "|" and "!" look alike in most fonts: one key for all, on both sides of a match.
  return { key: s.replace(/['’]/g, '').replace(/l/g, 'i'), disguises, mixedScript };
}

function asciiLetterCount(s: string): number {
  return s.match(ASCII_LETTERS)?.length ?? 0;
}

// One character at a time through the Unicode confusables table (unhomoglyph), remembered: a
// message uses few distinct characters. Only a letter of another script that maps onto Latin
// letters counts; Latin letters with accents were handled above, and a Turkish "ı" is Latin.
const lookalikes = new Map<string, string | null>();
function lookalikeOf(ch: string): string | null {
  let latin = lookalikes.get(ch);
  if (latin === undefined) {
    const mapped = unhomoglyph(ch).toLowerCase();
    latin = /^[a-z]+$/.test(mapped) && /^\p{L}$/u.test(ch) && !/^\p{Script=Latin}$/u.test(ch) ? mapped : null;
    if (lookalikes.size < MAX_CACHE) lookalikes.set(ch, latin);
  }
  return latin;
}
