import type { HtmlScan } from '../content-html';
import type { LinkFacts } from '../content-links';
import { CONTENT_LIMITS } from '../content-rules';
import type { AnalysisFinding } from '../finding';
import { showInvisible, wordsWithInvisibleCharacters } from './invisible-characters';
import { hasListUnsubscribe, suspectUnsubscribeLinks, suspiciousTldLinks } from './link-signals';
import { canonicalWord, LOOKALIKE_DISGUISES, OBFUSCATION_DISGUISES } from './normalise';
import { readWords, type ReadText } from './read-words';
import { PhraseIndex, type PhraseHit } from './phrase-matcher';
import {
  MAX_QUOTED_HITS,
  MAX_SCANNED_TEXT_CHARS,
  MAX_SPAM_CONTENT_POINTS,
  rulePoints,
  SPAM_CONTENT_RULES,
  SUBJECT_WEIGHT,
  type SpamContentRuleId,
} from './rules';
import { largeSums, shouting } from './text-signals';
import { WORD_LISTS, type WordRuleId } from './word-lists';

/** What the engine reads: the parts analyzeContent already decoded and scanned (the message is parsed once). */
export interface SpamContentInput {
  /** Decoded Subject. */
  subject: string | null;
  /** Decoded text/plain part. */
  text: string | null;
  /** The scan of the text/html part. */
  html: HtmlScan | null;
  links: LinkFacts;
  /** Raw List-Unsubscribe value. */
  listUnsubscribe: string | null;
  /** Domain of the From address. */
  fromDomain: string | null;
}

const PHRASES = new PhraseIndex<WordRuleId>(WORD_LISTS);

/** Hidden text with fewer words that the reader does not also see is a preheader, not an attempt to fool a filter. */
const HIDDEN_TEXT_MIN_UNSEEN_WORDS = 15;
/** With at least this many images, under this much visible text per image, pictures carry the message. */
const IMAGE_HEAVY_MIN_IMAGES = 2;
const IMAGE_HEAVY_TEXT_PER_IMAGE = 100;

interface Source {
  /** How the finding labels a quote from here. */
  label: '' | ' (subject)' | ' (in a link)';
  text: string;
  read: ReadText;
  weight: number;
  /** Words in link targets: leetspeak-looking ids and cut words are URL syntax there, not a disguise. */
  disguisesCount: boolean;
}

/**
 * The spam-content engine: reads the subject, the decoded text and HTML parts, the visible HTML
 * text and the link targets the way a content filter does, and reports one finding per rule that
 * fired (rules.ts), each with its points, the hits quoted as written, and the fix.
 */
export function readSpamContent(input: SpamContentInput): AnalysisFinding[] {
  const sources = readSources(input);
  const tally = new Tally();
  const [subject, html, plain] = sources;
  const unsubscribeHeader = hasListUnsubscribe(input.listUnsubscribe);

  for (const source of sources) {
    for (const hit of PHRASES.find(source.read)) {
      const rule = hit.phrase.rule;
      if (rule === 'content.spam-fake-unsubscribe' && unsubscribeHeader) continue;
      // Only a strong phrase counts more in the subject: "Bitcoin" in a subject is no stronger a sign than in the body.
      tally.add(
        rule,
        hit.phrase.text,
        { source, start: hit.start, end: hit.end },
        hit.phrase.strong ? source.weight : 1,
        hit.phrase.strong,
      );
      if (source.disguisesCount) countDisguise(tally, source, hit);
    }
    if (source.disguisesCount) {
      for (const word of source.read.words) {
        // Checked first so a word repeated thousands of times is counted, and its place kept, once.
        if (word.mixedScript && !tally.has('content.spam-lookalike-characters', word.key)) {
          tally.add(
            'content.spam-lookalike-characters',
            word.key,
            { source, start: word.start, end: word.end },
            source.weight,
            true,
          );
        }
      }
    }
  }
  for (const source of [subject, plain]) {
    for (const word of wordsWithInvisibleCharacters(source.text)) {
      tally.add(
        'content.spam-lookalike-characters',
        canonicalWord(word).key,
        `"${showInvisible(word)}"${source.label}`,
        source.weight,
        true,
      );
    }
  }
  for (const word of input.html?.wordsWithInvisibleCharacters ?? []) {
    tally.add('content.spam-lookalike-characters', canonicalWord(word).key, `"${showInvisible(word)}"`, 1, true);
  }

  for (const source of [subject, html, plain]) {
    for (const sum of largeSums(source.text))
      tally.add('content.spam-money-claims', sum.key, `"${sum.text}"${source.label}`, source.weight, true);
  }
  countShouting(tally, html.text ? html : plain);
  if (input.html) countLayout(tally, input.html, html.read);
  for (const link of suspiciousTldLinks(input.links.linkDomains))
    tally.add('content.spam-suspicious-tlds', link.key, link.text, 1, true);
  const anchors = input.html?.anchors ?? [];
  for (const link of suspectUnsubscribeLinks({
    anchors,
    listUnsubscribe: input.listUnsubscribe,
    fromDomain: input.fromDomain,
  })) {
    tally.add('content.spam-fake-unsubscribe', link.key, link.text, 1, true);
  }
  return tally.findings();
}

/** Subject, HTML text, plain text and link targets, each cut to what is left of MAX_SCANNED_TEXT_CHARS. */
function readSources(input: SpamContentInput): [Source, Source, Source, Source] {
  let budget = MAX_SCANNED_TEXT_CHARS;
  const take = (text: string | null | undefined) => {
    const taken = (text ?? '').slice(0, budget);
    budget -= taken.length;
    return taken;
  };
  const source = (label: Source['label'], text: string, weight: number, disguisesCount: boolean): Source => ({
    label,
    text,
    read: readWords(text),
    weight,
    disguisesCount,
  });
  // In this order: what is read first is what a filter weighs most.
  const subject = source(' (subject)', take(input.subject?.slice(0, 998)), SUBJECT_WEIGHT, true);
  const html = source('', take(input.html?.text), 1, true);
  const plain = source('', take(input.text), 1, true);
  // "cheap-viagra.example/buy-now" reads as "cheap viagra example buy now".
  const targets = source(
    ' (in a link)',
    take(input.links.targets.join('\n')).replace(/[^\p{L}\p{N}\n]+/gu, ' '),
    1,
    false,
  );
  return [subject, html, plain, targets];
}

/**
 * A listed word that had to be decoded first is evidence of its own, counted per disguised word (as
 * the look-alike words found anywhere are): look-alike letters are invisible, leetspeak and spacing are not.
 */
function countDisguise(tally: Tally, source: Source, hit: PhraseHit<WordRuleId>): void {
  for (const word of hit.words) {
    const rule: SpamContentRuleId | null =
      word.disguises & LOOKALIKE_DISGUISES
        ? 'content.spam-lookalike-characters'
        : word.disguises & OBFUSCATION_DISGUISES
          ? 'content.spam-obfuscated-words'
          : null;
    if (rule !== null) tally.add(rule, word.key, { source, start: word.start, end: word.end }, source.weight, true);
  }
}

function countShouting(tally: Tally, body: Source): void {
  const { capitals, punctuation } = shouting(body.text, body.read.words);
  if (capitals) tally.add('content.spam-shouting', 'capitals', capitals, 1, true);
  if (punctuation.length > 0) {
    const runs = [...new Set(punctuation)];
    tally.add(
      'content.spam-shouting',
      'punctuation',
      `${runs.length} runs of punctuation (${runs
        .slice(0, 3)
        .map((r) => `"${r}"`)
        .join(', ')})`,
      1,
      true,
    );
  }
}

function countLayout(tally: Tally, html: HtmlScan, visible: ReadText): void {
  const images = html.images.length;
  const chars = html.text.length;
  // Under imageOnlyMaxTextChars the message is image-only, a finding of its own (content.image-only-body).
  if (
    images >= IMAGE_HEAVY_MIN_IMAGES &&
    chars >= CONTENT_LIMITS.imageOnlyMaxTextChars &&
    chars < images * IMAGE_HEAVY_TEXT_PER_IMAGE
  ) {
    tally.add('content.spam-image-heavy', 'images', `${images} images and ${chars} characters of text`, 1, true);
  }

  // The hidden words the reader does not also see: a preheader repeats the message, filler does not.
  const unseen = new Set(
    readWords(html.hiddenText)
      .words.filter((w) => !w.isNumber && w.key.length >= 3)
      .map((w) => w.key),
  );
  if (unseen.size >= HIDDEN_TEXT_MIN_UNSEEN_WORDS) for (const word of visible.words) unseen.delete(word.key);
  if (unseen.size >= HIDDEN_TEXT_MIN_UNSEEN_WORDS) {
    const sample = html.hiddenText.length > 80 ? `${html.hiddenText.slice(0, 80)}…` : html.hiddenText;
    // Each way of hiding is one more hit: a message that hides text three ways means it.
    tally.add(
      'content.spam-hidden-text',
      'hidden',
      `${unseen.size} words the reader cannot see, hidden by ${html.hiddenBy.join(', ')}: "${sample}"`,
      html.hiddenBy.length,
      true,
    );
  }
}

/** The words as written, whitespace collapsed (and double quotes made single, to keep the quoting readable), at most 60 characters. */
function quote(source: Source, start: number, end: number): string {
  const text = source.text.slice(start, end).replace(/\s+/g, ' ').replaceAll('"', "'");
  return `"${text.length > 60 ? `${text.slice(0, 60)}…` : text}"${source.label}`;
}

/** Where a hit was written, so its quote is made only if the finding shows it. */
interface Place {
  source: Source;
  start: number;
  end: number;
}

interface Hit {
  quote: string | Place;
  weight: number;
  strong: boolean;
}

/** Hits kept per rule: every rule is at its maximum long before, so more would only cost memory on hostile text. */
const MAX_HITS_PER_RULE = 50;

/** The distinct hits of each rule; each hit counts once, at the highest weight it was seen with. */
class Tally {
  private readonly byRule = new Map<SpamContentRuleId, { hits: Map<string, Hit>; dropped: boolean }>();

  has(rule: SpamContentRuleId, key: string): boolean {
    return this.byRule.get(rule)?.hits.has(key) ?? false;
  }

  /** A hit, quoted by a text or by its place in a source; counted once per key. */
  add(rule: SpamContentRuleId, key: string, quote: string | Place, weight: number, strong: boolean): void {
    let entry = this.byRule.get(rule);
    if (!entry) this.byRule.set(rule, (entry = { hits: new Map(), dropped: false }));
    const known = entry.hits.get(key);
    if (known) {
      known.weight = Math.max(known.weight, weight);
      known.strong ||= strong;
    } else if (entry.hits.size < MAX_HITS_PER_RULE) {
      entry.hits.set(key, { quote, weight, strong });
    } else entry.dropped = true;
  }

  findings(): AnalysisFinding[] {
    const fired: { id: SpamContentRuleId; points: number; quotes: string[]; more: string }[] = [];
    for (const id of Object.keys(SPAM_CONTENT_RULES) as SpamContentRuleId[]) {
      const entry = this.byRule.get(id);
      const hits = [...(entry?.hits.values() ?? [])];
      // Supporting words only add to a rule a strong phrase has set off.
      if (!hits.some((h) => h.strong)) continue;
      const points = rulePoints(
        id,
        hits.reduce((sum, h) => sum + h.weight, 0),
      );
      const ordered = [...hits.filter((h) => h.strong), ...hits.filter((h) => !h.strong)];
      const quotes = ordered
        .slice(0, MAX_QUOTED_HITS)
        .map((h) => (typeof h.quote === 'string' ? h.quote : quote(h.quote.source, h.quote.start, h.quote.end)));
      const unquoted = ordered.length - quotes.length;
      const more = unquoted > 0 || entry?.dropped ? ` and ${entry?.dropped ? 'at least ' : ''}${unquoted} more` : '';
      fired.push({ id, points, quotes, more });
    }
    // Biggest first, up to MAX_SPAM_CONTENT_POINTS in all; the report keeps the table's order.
    let left = MAX_SPAM_CONTENT_POINTS;
    const charged = new Map<SpamContentRuleId, number>();
    for (const { id, points } of [...fired].sort((a, b) => b.points - a.points)) {
      charged.set(id, Math.min(points, left));
      left = Math.max(0, left - points);
    }
    const findings = fired.map(({ id, points, quotes, more }): AnalysisFinding => {
      const rule = SPAM_CONTENT_RULES[id];
      const deduction = Math.round(charged.get(id)! * 10) / 10;
      const capped =
        deduction < points
          ? ` This rule is worth ${points.toFixed(1)} points; ${deduction.toFixed(1)} charged, since the spam-content rules take at most ${MAX_SPAM_CONTENT_POINTS} in all.`
          : '';
      return {
        id,
        category: 'content',
        severity: rule.severity,
        title: rule.title,
        detail: `${rule.explanation} Found: ${quotes.join(', ')}${more}.${capped}`,
        deduction,
        fix: rule.fix,
      };
    });
    if (findings.length === 0) {
      findings.push({
        id: 'content.spam-content',
        category: 'content',
        severity: 'pass',
        title: 'The text reads like ordinary mail',
        detail:
          'No spam phrases, disguised words, look-alike characters, hidden text or abused link domains were found.',
        deduction: 0,
        fix: null,
      });
    }
    return findings;
  }
}
