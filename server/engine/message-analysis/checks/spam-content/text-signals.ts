import type { Word } from './read-words';

/**
 * Signals in the body text that are not words from a list: large sums of money, capitals and
 * punctuation runs. Every pattern here is a single pass without nested or overlapping repetition,
 * and each repetition is bounded, so hostile text costs time in proportion to its length.
 */

export interface Quote {
  /** What identifies the hit for counting (two mentions of one sum are one hit). */
  key: string;
  /** As written in the message. */
  text: string;
}

// A sum of a million or more with its currency: "$10,500,000", "US$ 4.000.000", "€2,000,000.00".
const CURRENCY_BEFORE = /(?:[$€£]|\b(?:usd|eur|gbp)\s?)\s?\d{1,3}(?:[,.' ]\d{3}){2,5}/gi;
// "10,500,000.00 USD", "4,000,000 dollars".
const CURRENCY_AFTER = /\b\d{1,3}(?:[,.' ]\d{3}){2,5}(?:\.\d{2})?\s?(?:usd|eur|gbp|dollars|euros|pounds)\b/gi;
// "$4.5 million", "€2M", "US$10 billion".
const CURRENCY_MILLIONS = /[$€£]\s?\d{1,6}(?:[.,]\d{1,3})?\s?(?:million|billion|mln|m|bn)\b/gi;

/** Sums in the millions, which ordinary mail almost never writes and fraud mail always does. */
export function largeSums(text: string): Quote[] {
  const found: Quote[] = [];
  for (const pattern of [CURRENCY_BEFORE, CURRENCY_AFTER, CURRENCY_MILLIONS]) {
    for (const m of text.matchAll(pattern)) found.push({ key: `sum:${m[0].replace(/\D/g, '')}`, text: m[0].trim() });
  }
  return found;
}

/** Capitals: at least this many words of 4+ characters in capitals, and this share of all such words. */
const CAPS_MIN_WORDS = 10;
const CAPS_MIN_SHARE = 0.3;
/** Runs of "!" (2+), "?" (3+) or "$" (2+): this many, or one this long, is shouting. */
const PUNCTUATION_MIN_RUNS = 2;
const PUNCTUATION_LONG_RUN = 4;

export interface Shouting {
  /** Set when capitals dominate: e.g. '14 of 30 words in capitals ("FREE", "MONEY", …)'. */
  capitals: string | null;
  /** The punctuation runs with the word before them, as written, when there are enough of them. */
  punctuation: string[];
}

export function shouting(text: string, words: Word[]): Shouting {
  let long = 0;
  const capitals: string[] = [];
  for (const word of words) {
    if (!word.hasLetter || word.text.length < 4) continue;
    long++;
    if (isCapitals(word.text)) capitals.push(word.text);
  }
  const loud = capitals.length >= CAPS_MIN_WORDS && capitals.length / long >= CAPS_MIN_SHARE;

  const runs: string[] = [];
  let longRun = false;
  for (const m of text.matchAll(/[!?$]{2,}/g)) {
    if (runs.length >= 20) break; // enough to decide and to quote
    const run = m[0];
    const count = (ch: string) => run.split(ch).length - 1;
    if (count('!') < 2 && count('?') < 3 && count('$') < 2) continue;
    if (run.length >= PUNCTUATION_LONG_RUN) longRun = true;
    runs.push(wordBefore(text, m.index) + run.slice(0, 10));
  }
  return {
    capitals: loud
      ? `${capitals.length} of ${long} words in capitals (${[...new Set(capitals)]
          .slice(0, 5)
          .map((w) => `"${w}"`)
          .join(', ')})`
      : null,
    punctuation: runs.length >= PUNCTUATION_MIN_RUNS || longRun ? runs : [],
  };
}

const LOWER_CASE = /\p{Ll}/u;
const UPPER_CASE = /\p{Lu}/u;

/** Four or more letters, all capitals ("FREE", "V1AGRA"); ASCII checked by code, anything else by Unicode case properties. */
function isCapitals(word: string): boolean {
  let letters = 0;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code >= 97 && code <= 122) return false;
    if (code >= 65 && code <= 90) letters++;
    else if (code >= 0x80) return !LOWER_CASE.test(word) && UPPER_CASE.test(word);
  }
  return letters >= 4;
}

/** Up to 20 characters of the word right before `index`, to show where a run of "!" stood. */
function wordBefore(text: string, index: number): string {
  let start = index;
  while (start > 0 && index - start < 20 && !/\s/.test(text[start - 1])) start--;
  return text.slice(start, index);
}
