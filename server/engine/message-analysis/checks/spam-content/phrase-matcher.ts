import { readWords, type ReadText, type Word } from './read-words';
import type { WordList } from './word-lists';

/**
 * Occurrences of one phrase reported from one text. The engine counts a phrase once; the first few
 * occurrences are enough to see its disguises, and hostile text repeating a phrase 10,000 times
 * then costs no more than a text that says it 20 times.
 */
const MAX_HITS_PER_PHRASE = 20;

/** One word of a listed phrase: a canonical word, a prefix of one ("pharmac*"), or any number ("#"). */
type Step = { kind: 'word'; key: string } | { kind: 'prefix'; key: string } | { kind: 'number' };

export interface Phrase<R extends string> {
  rule: R;
  /** As listed, which is how the phrase is counted: each distinct phrase once. */
  text: string;
  strong: boolean;
  steps: Step[];
}

export interface PhraseHit<R extends string> {
  phrase: Phrase<R>;
  /** Where the words are in the text read, [start, end): the finding quotes the message from here. */
  start: number;
  end: number;
  /** DISGUISE flags of the words that matched. */
  disguises: number;
  /** The words that matched. */
  words: Word[];
}

/**
 * Every phrase of every word list, indexed by its first word, so reading a text costs one map look-up
 * per word (plus a test per prefix phrase) rather than one test per phrase.
 */
export class PhraseIndex<R extends string> {
  private readonly byWord = new Map<string, Phrase<R>[]>();
  /** Few phrases start with a prefix: a list tried in turn costs less than slicing every word. */
  private readonly byPrefix: Phrase<R>[] = [];
  private readonly byNumber: Phrase<R>[] = [];

  constructor(lists: Record<R, WordList>) {
    for (const rule of Object.keys(lists) as R[]) {
      const { strong, supporting } = lists[rule];
      for (const [texts, isStrong] of [
        [strong, true],
        [supporting, false],
      ] as const) {
        for (const text of texts) this.add({ rule, text, strong: isStrong, steps: compile(text) });
      }
    }
  }

  private add(phrase: Phrase<R>): void {
    const [first] = phrase.steps;
    if (first.kind === 'number') this.byNumber.push(phrase);
    else if (first.kind === 'prefix') this.byPrefix.push(phrase);
    else push(this.byWord, first.key, phrase);
  }

  /**
   * The listed phrases in a text, each at most MAX_HITS_PER_PHRASE times. Where several phrases of
   * one rule start at the same word the longest wins, and a phrase inside a longer hit of the same
   * rule is not counted again ("limited time" inside "limited time offer", "million dollars" inside
   * "# million dollars").
   */
  find(text: ReadText): PhraseHit<R>[] {
    const { words, joined } = text;
    const hits: PhraseHit<R>[] = [];
    const coveredUntil = new Map<R, number>();
    const reported = new Map<Phrase<R>, number>();
    const report = (phrase: Phrase<R>, from: Word[], i: number) => {
      const times = reported.get(phrase) ?? 0;
      if (times < MAX_HITS_PER_PHRASE) hits.push(hitOf(phrase, from, i));
      reported.set(phrase, times + 1);
    };
    // Reused, with a count rather than a length: most words match nothing, and resizing an array costs more than the
    // look-up.
    const matched: Phrase<R>[] = [];
    for (let i = 0; i < words.length; i++) {
      const count = this.collect(words[i], words, i, matched);
      for (let k = 0; k < count; k++) {
        const phrase = matched[k];
        if (isOutdone(phrase, matched, count) || (coveredUntil.get(phrase.rule) ?? 0) > i) continue;
        report(phrase, words, i);
        coveredUntil.set(phrase.rule, i + phrase.steps.length);
      }
    }
    // A cut word ("vi.agra") is one word: it can only be a one-word phrase.
    for (const word of joined) {
      const count = this.collect(word, [word], 0, matched);
      for (let k = 0; k < count; k++) if (matched[k].steps.length === 1) report(matched[k], [word], 0);
    }
    return hits;
  }

  /** Puts the phrases that start with `word` and match the words from `i` on at the start of `into`; returns how many. */
  private collect(word: Word, words: Word[], i: number, into: Phrase<R>[]): number {
    if (word.key === '') return 0;
    let count = this.consider(this.byWord.get(word.key), words, i, into, 0);
    if (word.isNumber) count = this.consider(this.byNumber, words, i, into, count);
    else count = this.consider(this.byPrefix, words, i, into, count);
    return count;
  }

  private consider(
    phrases: Phrase<R>[] | undefined,
    words: Word[],
    i: number,
    into: Phrase<R>[],
    count: number,
  ): number {
    if (phrases) for (const phrase of phrases) if (matchesAt(phrase.steps, words, i)) into[count++] = phrase;
    return count;
  }
}

/** A longer phrase of the same rule matched at the same place. */
function isOutdone<R extends string>(phrase: Phrase<R>, matched: Phrase<R>[], count: number): boolean {
  for (let k = 0; k < count; k++)
    if (matched[k].rule === phrase.rule && matched[k].steps.length > phrase.steps.length) return true;
  return false;
}

function hitOf<R extends string>(phrase: Phrase<R>, words: Word[], i: number): PhraseHit<R> {
  const matched = words.slice(i, i + phrase.steps.length);
  const disguises = matched.reduce((d, w) => d | w.disguises, 0);
  return {
    phrase,
    start: matched[0].start,
    end: matched[matched.length - 1].end,
    disguises,
    words: matched,
  };
}

function push<R extends string>(map: Map<string, Phrase<R>[]>, key: string, phrase: Phrase<R>): void {
  const list = map.get(key);
  if (list) list.push(phrase);
  else map.set(key, [phrase]);
}

/** A listed phrase as steps, read by the same normaliser as the message so both meet in one form. */
function compile(text: string): Step[] {
  const steps = text
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((part): Step[] => {
      if (part === '#') return [{ kind: 'number' }];
      if (part.endsWith('*')) return readWords(part.slice(0, -1)).words.map((w) => ({ kind: 'prefix', key: w.key }));
      return readWords(part).words.map((w) => ({ kind: 'word', key: w.key }));
    });
  if (steps.length === 0) throw new Error(`Word list phrase "${text}" has no words`);
  return steps;
}

function matchesAt(steps: Step[], words: Word[], i: number): boolean {
  if (i + steps.length > words.length) return false;
  for (let j = 0; j < steps.length; j++) {
    const step = steps[j];
    const word = words[i + j];
    const ok =
      step.kind === 'number'
        ? word.isNumber && word.key !== ''
        : step.kind === 'prefix'
          ? !word.isNumber && word.key.startsWith(step.key)
          : word.key === step.key;
    if (!ok) return false;
  }
  return true;
}
