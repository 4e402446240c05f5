import { describe, expect, it } from 'vitest';
import { analyzeContent } from '../content';
import { scanHtml } from '../content-html';
import { analyzeLinks } from '../content-links';
import { readSpamContent } from './read-spam-content';
import { readWords } from './read-words';
import { MAX_SCANNED_TEXT_CHARS, SPAM_CONTENT_RULES } from './rules';

const ORDINARY = 'This month we shipped faster reports, a cleaner dashboard and better alerts. ';

function read(parts: { subject?: string; text?: string | null; html?: string | null }) {
  const scan = parts.html ? scanHtml(parts.html) : null;
  const text = parts.text ?? null;
  return readSpamContent({
    subject: parts.subject ?? 'Hello',
    text,
    html: scan,
    links: analyzeLinks(scan?.anchors ?? [], text, scan !== null),
    listUnsubscribe: null,
    fromDomain: 'brand.example',
  });
}
const ids = (findings: { id: string; severity: string }[]) =>
  findings.filter((f) => f.severity !== 'pass').map((f) => f.id);

/** A message with one hostile text/plain body, CRLF line ends. */
const message = (body: string) =>
  Buffer.from(
    [
      'From: a@brand.example',
      'To: b@example.org',
      'Subject: Report',
      'Date: Mon, 23 Nov 2026 10:00:00 +0000',
      'Message-ID: <big@brand.example>',
      'Content-Type: text/plain; charset=utf-8',
      '',
      body.replace(/\r?\n/g, '\r\n'),
    ].join('\r\n'),
  );

describe('bounded work', () => {
  it(`reads at most ${MAX_SCANNED_TEXT_CHARS.toLocaleString('en')} characters of text: subject, HTML text, plain text, then link targets`, () => {
    const filler = ORDINARY.repeat(Math.ceil(MAX_SCANNED_TEXT_CHARS / ORDINARY.length));
    expect(ids(read({ text: `viagra ${filler}` }))).toEqual(['content.spam-pharmacy']);
    expect(ids(read({ text: `${filler} viagra` }))).toEqual([]);
    // The HTML text comes first and uses the budget up, so the plain text and link targets are not read.
    expect(ids(read({ html: `<p>${filler}</p>`, text: 'viagra https://viagra.example/' }))).toEqual([]);
    expect(ids(read({ text: 'https://shop.example/cheap-viagra' }))).toEqual(['content.spam-pharmacy']);
  });

  it('cuts text into at most one word per character, whatever its shape', () => {
    for (const text of [
      'a '.repeat(50_000),
      'a'.repeat(100_000),
      '1,'.repeat(50_000),
      'a.b.'.repeat(25_000),
      '!'.repeat(100_000),
    ]) {
      const { words, joined } = readWords(text);
      expect(words.length + joined.length).toBeLessThanOrEqual(text.length);
    }
  });

  // Shapes that make careless tokenisers and regexes quadratic; each message is over 100 KB. The
  // test's time limit is the bound (ADR 018 gives the measured figures: tens of milliseconds at most).
  const hostile: Record<string, string> = {
    'one word of 100,000 letters': 'a'.repeat(100_000),
    'exclamation marks, then a letter': `${'!'.repeat(100_000)}a`,
    'single characters that never make a word': '1 '.repeat(60_000),
    'spaced letters without end': 'v i a g r a '.repeat(10_000),
    'a word cut into thousands of pieces': 'ab.cd.'.repeat(20_000),
    'digit groups without end': '1,111'.repeat(25_000),
    'currency signs and digits': '$1,000,000 €2.5 million '.repeat(5_000),
    'zero-width characters between letters': 'a\u200B'.repeat(60_000),
    'look-alike letters in every word': 'саsinо bоnus '.repeat(10_000),
    'spam phrases again and again': 'Dear friend act now viagra million dollars next of kin '.repeat(2_000),
    'capitals and punctuation runs': 'FREE!!! MONEY$$$ '.repeat(8_000),
  };

  it.each(Object.entries(hostile))('%s: finishes, with a bounded report', async (_name, body) => {
    const { findings } = await analyzeContent(message(body));
    const spam = findings.filter((f) => f.id.startsWith('content.spam'));
    expect(spam.length).toBeLessThanOrEqual(Object.keys(SPAM_CONTENT_RULES).length);
    for (const f of spam) expect(f.detail?.length ?? 0).toBeLessThan(2000);
  });

  it('finds the spam in hostile text all the same', async () => {
    const { findings } = await analyzeContent(message(hostile['spam phrases again and again']));
    expect(ids(findings)).toEqual(
      expect.arrayContaining(['content.spam-pharmacy', 'content.spam-impersonal-greeting', 'content.spam-advance-fee']),
    );
  });
});
