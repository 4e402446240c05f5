/**
 * Characters that take no space on screen. Newsletters pad their preheader with runs of them, which
 * is harmless; put between the letters of a word ("vi\u200Bagra") they split the word for a filter
 * while the reader still sees it whole, which is the trick we look for.
 * U+034F is a combining mark, so it stands apart from the class.
 */
export const INVISIBLE_CHARACTERS = /[\u00AD\u180E\u200B-\u200F\u2060-\u2064\uFEFF]|\u034F/g;

const INVISIBLE_CHAR = /^(?:[\u00AD\u180E\u200B-\u200F\u2060-\u2064\uFEFF]|\u034F)$/;
// Only Latin words: Persian, Arabic and Indic writing use ZWNJ/ZWJ between letters on purpose.
const LATIN_LETTER = /^\p{Script=Latin}$/u;
/** Further than this from an invisible character is another word, and not worth the scan. */
const MAX_WORD_CHARS = 40;

/**
 * The Latin words that carry an invisible character between two of their letters, as written
 * (invisible characters included), at most `max` of them. One forward pass over the invisible
 * characters; each word is read once.
 */
export function wordsWithInvisibleCharacters(text: string, max = 10): string[] {
  const words: string[] = [];
  const pattern = new RegExp(INVISIBLE_CHARACTERS.source, 'g');
  let match: RegExpExecArray | null;
  while (words.length < max && (match = pattern.exec(text)) !== null) {
    const at = match.index;
    let after = at + 1;
    while (after < text.length && after - at < MAX_WORD_CHARS && INVISIBLE_CHAR.test(text[after])) after++;
    if (at === 0 || !LATIN_LETTER.test(text[at - 1]) || after >= text.length || !LATIN_LETTER.test(text[after]))
      continue;
    const isWordChar = (ch: string) => LATIN_LETTER.test(ch) || INVISIBLE_CHAR.test(ch);
    let start = at;
    while (start > 0 && at - start < MAX_WORD_CHARS && isWordChar(text[start - 1])) start--;
    let end = after;
    while (end < text.length && end - after < MAX_WORD_CHARS && isWordChar(text[end])) end++;
    words.push(text.slice(start, end));
    pattern.lastIndex = end; // the rest of this word is read
  }
  return words;
}

/** A word as the report shows it: each invisible character named, so the reader sees where it was. */
export function showInvisible(word: string): string {
  return word.replace(
    new RegExp(INVISIBLE_CHARACTERS.source, 'g'),
    (ch) => `<U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`,
  );
}
