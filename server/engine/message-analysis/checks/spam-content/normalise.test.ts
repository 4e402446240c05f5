import { describe, expect, it } from 'vitest';
import { canonicalWord, DISGUISE } from './normalise';
import { readWords } from './read-words';

const key = (word: string) => canonicalWord(word).key;
const disguises = (word: string) => canonicalWord(word).disguises;
/** The words of a text as [as written, key]. */
const words = (text: string) => readWords(text).words.map((w) => [text.slice(w.start, w.end), w.key]);

describe('canonicalWord', () => {
  it('gives plain words their lower-case form, with "l" folded into "i" on both sides of a match', () => {
    expect(key('Million')).toBe('miiiion');
    expect(key('million')).toBe(key('MILLION'));
    expect(canonicalWord('Million')).toMatchObject({ disguises: 0, mixedScript: false });
  });

  it('reads leetspeak as letters', () => {
    expect(key('m1ll10n')).toBe(key('million'));
    expect(key('V1AGRA')).toBe(key('viagra'));
    expect(key('fr33')).toBe(key('free'));
    expect(key('c@$h')).toBe(key('cash'));
    expect(key('v!agra')).toBe(key('viagra'));
    expect(disguises('V1AGRA')).toBe(DISGUISE.leet);
    // Digits with no letters are numbers, not leetspeak; digits that stand for no letter stay.
    expect(key('b2b')).toBe('b2b');
    expect(disguises('b2b')).toBe(0);
  });

  it('reads Cyrillic and Greek look-alike letters as the Latin letters they imitate, and flags the mix', () => {
    // Cyrillic а
    expect(canonicalWord('viаgra')).toEqual({ key: key('viagra'), disguises: DISGUISE.lookalike, mixedScript: true });
    expect(canonicalWord('Ρаypal')).toMatchObject({ key: key('paypal'), mixedScript: true }); // Greek Ρ, Cyrillic а
    // A word wholly in another script is not a mix (and real Russian words stay Russian enough to match nothing).
    expect(canonicalWord('привет').mixedScript).toBe(false);
    // Latin letters of other languages are not look-alikes; a Greek letter that looks like no Latin one is no disguise.
    expect(canonicalWord('kılıç').mixedScript).toBe(false);
    expect(canonicalWord('5μm').mixedScript).toBe(false);
  });

  it('undoes full-width and styled letters (NFKC)', () => {
    expect(canonicalWord('ＶＩＡＧＲＡ')).toMatchObject({ key: key('viagra'), disguises: DISGUISE.styled });
    expect(canonicalWord('𝐅𝐑𝐄𝐄')).toMatchObject({ key: key('free'), disguises: DISGUISE.styled });
  });

  it('drops zero-width characters inside a word, and accents', () => {
    expect(canonicalWord('vi\u200Bag\u200Dra')).toMatchObject({ key: key('viagra'), disguises: DISGUISE.invisible });
    expect(canonicalWord('víagrà')).toMatchObject({ key: key('viagra'), disguises: DISGUISE.accents });
  });

  it('ignores apostrophes', () => {
    expect(key("don't")).toBe(key('dont'));
    expect(key('you’ve')).toBe(key("you've"));
  });
});

describe('readWords', () => {
  it('cuts text into words and keeps where each was written', () => {
    const text = 'Dear friend, act NOW!!! (100% free)';
    expect(words(text)).toEqual([
      ['Dear', 'dear'],
      ['friend', 'friend'],
      ['act', 'act'],
      ['NOW', 'now'],
      ['100', '100'],
      ['free', 'free'],
    ]);
  });

  it('joins spaced-out and dotted letters into one word, flagged as spaced', () => {
    const read = readWords('get v i a g r a and c.a.s.h or F-R-E-E now');
    expect(read.words.map((w) => w.key)).toEqual(['get', key('viagra'), 'and', 'cash', 'or', 'free', 'now']);
    expect(read.words[1]).toMatchObject({ start: 4, end: 15, disguises: DISGUISE.spaced });
    // Two letters are an abbreviation ("e.g."), and a run of digits is a number, not a word.
    expect(readWords('e.g. it works').words.map((w) => w.key)).toEqual(['e', 'g', 'it', 'works']);
    expect(readWords('1 2 3 4').words.every((w) => w.isNumber)).toBe(true);
  });

  it('also reads a word cut by punctuation whole, beside its pieces', () => {
    const read = readWords('buy vi.agra or ca-sino, or e-mail us at www.example.com');
    expect(read.words.map((w) => w.key)).toContain('agra');
    expect(read.joined.map((w) => w.key)).toEqual([key('viagra'), key('casino'), key('email')]);
    expect(read.joined[0].disguises & DISGUISE.separators).toBeTruthy();
  });

  it('reads amounts with digit groups as one number', () => {
    const read = readWords('earn $5,000,000.00 a year');
    expect(read.words.map((w) => [w.key, w.isNumber])).toEqual([
      ['earn', false],
      ['500000000', true],
      ['a', false],
      ['year', false],
    ]);
  });

  it('trims edge punctuation and possessives, and keeps symbols inside a word', () => {
    expect(words("'Hello'!!! friend's c@sh @team")).toEqual([
      ['Hello', 'heiio'],
      ['friend', 'friend'],
      ['c@sh', 'cash'],
      ['team', 'team'],
    ]);
  });

  it('keeps zero-width characters inside the word they split', () => {
    const [word] = readWords('vi\u200Bagra').words;
    expect(word).toMatchObject({ start: 0, end: 7, key: key('viagra') });
    expect(word.disguises & DISGUISE.invisible).toBeTruthy();
  });

  it('gives an overlong run of letters no key, so it matches nothing', () => {
    const [word] = readWords('x'.repeat(1000)).words;
    expect(word.key).toBe('');
  });

  it('reads astral letters (mathematical bold) as one word', () => {
    expect(readWords('𝐅𝐑𝐄𝐄 money').words.map((w) => w.key)).toEqual(['free', 'money']);
  });
});
