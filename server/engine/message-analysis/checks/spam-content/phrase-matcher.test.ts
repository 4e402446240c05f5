import { describe, expect, it } from 'vitest';
import { PhraseIndex } from './phrase-matcher';
import { readWords } from './read-words';

const index = new PhraseIndex({
  money: { strong: ['million dollars', '# million dollars', 'earn #', 'risk free'], supporting: ['cash'] },
  urgency: { strong: ['limited time', 'limited time offer', 'act now'], supporting: [] },
  pharmacy: { strong: ['viagra', 'pharmac*'], supporting: [] },
});
const found = (text: string) =>
  index.find(readWords(text)).map((h) => [h.phrase.rule, h.phrase.text, text.slice(h.start, h.end)]);

describe('PhraseIndex', () => {
  it('finds phrases as whole words, whatever the case, and quotes them as written', () => {
    expect(found('ACT NOW for our Limited Time deal')).toEqual([
      ['urgency', 'act now', 'ACT NOW'],
      ['urgency', 'limited time', 'Limited Time'],
    ]);
    // Whole words only: "reaction now" has no "act now".
    expect(found('reaction now, unlimited timeline')).toEqual([]);
  });

  it('takes the longest phrase of a rule at one place, and does not count a phrase inside it again', () => {
    expect(found('a limited time offer')).toEqual([['urgency', 'limited time offer', 'limited time offer']]);
    expect(found('we pay 10 million dollars')).toEqual([['money', '# million dollars', '10 million dollars']]);
  });

  it('matches "#" to any number and "*" to a word prefix', () => {
    expect(found('earn $5,000 at our pharmacies')).toEqual([
      ['money', 'earn #', 'earn $5,000'],
      ['pharmacy', 'pharmac*', 'pharmacies'],
    ]);
  });

  it('sees through disguises and says which words were disguised', () => {
    const [hit] = index.find(readWords('cheap V1AGRA'));
    expect(hit).toMatchObject({ phrase: { text: 'viagra' }, words: [{ key: 'viagra', text: 'V1AGRA' }] });
    expect(hit.disguises).toBeGreaterThan(0);
    expect(found('v i a g r a')).toEqual([['pharmacy', 'viagra', 'v i a g r a']]);
    // A word cut by punctuation is read whole for one-word phrases.
    expect(found('vi.agra')).toEqual([['pharmacy', 'viagra', 'vi.agra']]);
  });

  it('reports each occurrence, up to 20 of one phrase (the engine counts each phrase once)', () => {
    expect(found('act now, act now')).toHaveLength(2);
    expect(found('act now '.repeat(1000))).toHaveLength(20);
  });

  it('refuses a phrase with no words', () => {
    expect(() => new PhraseIndex({ x: { strong: ['!!!'], supporting: [] } })).toThrow(/no words/);
  });
});
