import { describe, expect, it } from 'vitest';
import { scanHtml } from '../content-html';
import { analyzeLinks } from '../content-links';
import type { AnalysisFinding } from '../finding';
import { readSpamContent } from './read-spam-content';
import { MAX_SPAM_CONTENT_POINTS, rulePoints, SPAM_CONTENT_RULES, type SpamContentRuleId } from './rules';
import { WORD_LISTS } from './word-lists';

interface Message {
  subject?: string;
  text?: string | null;
  html?: string | null;
  listUnsubscribe?: string | null;
  fromDomain?: string | null;
}

/** The engine's findings for a message given by its decoded parts, as analyzeContent would pass them. */
function read({
  subject = 'Our March update',
  text = null,
  html = null,
  listUnsubscribe = null,
  fromDomain = 'brand.example',
}: Message): AnalysisFinding[] {
  const scan = html === null ? null : scanHtml(html);
  const links = analyzeLinks(scan?.anchors ?? [], text, scan !== null);
  const findings = readSpamContent({ subject, text, html: scan, links, listUnsubscribe, fromDomain });
  for (const f of findings) {
    expect(f.category).toBe('content');
    if (f.severity === 'pass') expect(f.deduction).toBe(0);
    else expect(f.fix?.length).toBeGreaterThan(20);
  }
  return findings;
}
/** Rule id to points charged, for the rules that fired. */
const fired = (m: Message) =>
  Object.fromEntries(
    read(m)
      .filter((f) => f.severity !== 'pass')
      .map((f) => [f.id, f.deduction]),
  );
const detail = (m: Message, id: SpamContentRuleId) => read(m).find((f) => f.id === id)?.detail ?? '';

const ORDINARY =
  'This month we shipped faster reports, a cleaner dashboard and better alerts. Thank you for the feedback that shaped them.';

describe('the rules table', () => {
  it('gives every rule a title, an explanation, a fix and points that grow to a maximum', () => {
    for (const [id, rule] of Object.entries(SPAM_CONTENT_RULES)) {
      expect(id).toMatch(/^content\.spam-[a-z-]+$/);
      expect(rule.explanation.length, id).toBeGreaterThan(40);
      expect(rule.fix.length, id).toBeGreaterThan(40);
      expect(rule.points.first, id).toBeGreaterThan(0);
      expect(rule.points.max, id).toBeGreaterThanOrEqual(rule.points.first);
      expect(rule.severity, id).toBe(rule.points.first >= 1.5 ? 'error' : 'warning');
    }
  });

  it('has a rule for every word list', () => {
    for (const id of Object.keys(WORD_LISTS)) expect(SPAM_CONTENT_RULES).toHaveProperty([id]);
  });

  it('adds points per distinct hit, up to the maximum', () => {
    expect(rulePoints('content.spam-pharmacy', 0)).toBe(0);
    expect(rulePoints('content.spam-pharmacy', 1)).toBe(1.5);
    expect(rulePoints('content.spam-pharmacy', 3)).toBe(2.5);
    expect(rulePoints('content.spam-pharmacy', 50)).toBe(5);
  });
});

describe('ordinary mail', () => {
  it('fires nothing and says so', () => {
    const findings = read({
      text: ORDINARY,
      html: `<p>${ORDINARY}</p><p><a href="https://brand.example/r">Read more</a></p>`,
    });
    expect(findings).toEqual([expect.objectContaining({ id: 'content.spam-content', severity: 'pass', deduction: 0 })]);
  });

  it('does not fire on supporting words alone, nor on words inside other words', () => {
    expect(
      fired({
        text: 'The winners of the photo contest get a prize. Our cash flow report shows profit. Sussex, Essex, classic.',
      }),
    ).toEqual({});
  });
});

describe('word rules', () => {
  it.each<[SpamContentRuleId, string]>([
    ['content.spam-prize-claims', 'You have won our lottery: claim your prize today.'],
    ['content.spam-money-claims', 'Make money from home and enjoy financial freedom.'],
    ['content.spam-loan-offers', 'Bad credit? Get instant approval, no credit check.'],
    ['content.spam-pharmacy', 'Cheap viagra and cialis, no prescription needed.'],
    ['content.spam-adult', 'Hot singles and lonely wives want a hookup tonight.'],
    ['content.spam-counterfeit-goods', 'Swiss replica watches, AAA quality 1:1 copy.'],
    ['content.spam-seo-pitch', 'I was checking your website: we get you on the first page of Google with backlinks.'],
    ['content.spam-urgency', 'Act now, this is a limited time offer.'],
    ['content.spam-account-threats', 'Verify your account or your account will be suspended.'],
    ['content.spam-impersonal-greeting', 'Dear friend, I hope you are well.'],
    [
      'content.spam-advance-fee',
      'As next of kin you will receive the funds from the dormant account of my late client.',
    ],
  ])('%s fires on its phrases and quotes them as written', (id, text) => {
    const findings = read({ text });
    const finding = findings.find((f) => f.id === id);
    expect(finding, JSON.stringify(findings)).toMatchObject({
      severity: SPAM_CONTENT_RULES[id].severity,
      title: SPAM_CONTENT_RULES[id].title,
    });
    expect(finding!.detail).toMatch(/^.+ Found: ".+"/);
    expect(finding!.deduction).toBeGreaterThanOrEqual(SPAM_CONTENT_RULES[id].points.first);
  });

  it('counts each distinct phrase once, with diminishing returns up to the maximum', () => {
    expect(fired({ text: 'Viagra! Viagra! Viagra! Viagra!' })).toEqual({ 'content.spam-pharmacy': 1.5 });
    expect(fired({ text: 'Viagra, cialis and levitra.' })).toEqual({ 'content.spam-pharmacy': 2.5 });
    const all = 'viagra cialis levitra kamagra tramadol xanax valium oxycodone adderall phentermine. ';
    expect(fired({ text: all })['content.spam-pharmacy']).toBe(SPAM_CONTENT_RULES['content.spam-pharmacy'].points.max);
  });

  it('quotes at most five hits and says how many more there were', () => {
    expect(detail({ text: 'viagra cialis levitra kamagra tramadol xanax valium' }, 'content.spam-pharmacy')).toMatch(
      /Found: "viagra", "cialis", "levitra", "kamagra", "tramadol" and 2 more\.$/,
    );
  });

  it('weighs a strong phrase in the subject double, and reads the subject, HTML and text parts together', () => {
    expect(fired({ subject: 'Act now' })).toEqual({ 'content.spam-urgency': 1 });
    expect(fired({ text: 'Act now' })).toEqual({ 'content.spam-urgency': 0.5 });
    expect(detail({ subject: 'Act now', html: '<p>Hurry</p>', text: 'Click here' }, 'content.spam-urgency')).toContain(
      'Found: "Act now" (subject), "Hurry", "Click here".',
    );
  });

  it('lets supporting words add only to a rule a strong phrase set off', () => {
    expect(fired({ text: 'Bitcoin and crypto returns.' })).toEqual({});
    expect(fired({ text: 'Bitcoin and crypto returns: guaranteed returns!' })).toEqual({
      'content.spam-money-claims': 2.5,
    });
  });

  it('reads the words of link targets', () => {
    const html = `<p>${ORDINARY}</p><a href="https://shop.example.com/cheap-viagra-online">our shop</a>`;
    expect(detail({ html }, 'content.spam-pharmacy')).toContain('"viagra" (in a link)');
  });

  it('finds large sums of money', () => {
    expect(
      detail({ text: 'The sum of US$10,500,000.00 and €2.5 million awaits.' }, 'content.spam-money-claims'),
    ).toMatch(/"\$10,500,000".*"€2\.5 million"/);
    expect(fired({ text: 'Your total is $1,234.56. Shipping $4.99.' })).toEqual({});
  });

  it('counts "reply REMOVE" only when there is no List-Unsubscribe header', () => {
    const text = `${ORDINARY} To be removed, reply with REMOVE in the subject.`;
    expect(fired({ text })).toEqual({ 'content.spam-fake-unsubscribe': 2 });
    expect(fired({ text, listUnsubscribe: '<https://brand.example/u>' })).toEqual({});
  });
});

describe('disguised words', () => {
  it('leetspeak, spacing and cut words: the word counts in its rule, and the disguise in its own', () => {
    expect(fired({ text: 'Get V1AGRA now' })).toEqual({
      'content.spam-pharmacy': 1.5,
      'content.spam-obfuscated-words': 1.5,
    });
    expect(detail({ text: 'f r e e   c a s h and vi.agra' }, 'content.spam-obfuscated-words')).toContain('"vi.agra"');
    expect(fired({ text: 'f r e e m o n e y' })).toEqual({}); // one joined word, "freemoney", is no listed phrase
  });

  it('look-alike letters, full-width letters and zero-width characters', () => {
    expect(fired({ text: 'Your online саsinо bonus' })).toMatchObject({ 'content.spam-lookalike-characters': 1.5 });
    expect(detail({ subject: 'Ｆｒｅｅ ｍｏｎｅｙ' }, 'content.spam-lookalike-characters')).toContain(
      'Found: "Ｆｒｅｅ" (subject), "ｍｏｎｅｙ" (subject).',
    );
    expect(detail({ text: 'Hello fri\u200Bend' }, 'content.spam-lookalike-characters')).toContain('"fri<U+200B>end"');
    expect(detail({ html: `<p>${ORDINARY} Pay\u200Bpal</p>` }, 'content.spam-lookalike-characters')).toContain(
      '"Pay<U+200B>pal"',
    );
    // Any word that mixes scripts counts, listed or not: "Pаypal" with a Cyrillic "а".
    expect(detail({ text: `${ORDINARY} Log in to Pаypal.` }, 'content.spam-lookalike-characters')).toContain(
      '"Pаypal"',
    );
  });

  it('leaves other languages alone', () => {
    expect(fired({ text: 'Привет! Новые книги от Python и Telegram. Größere Berichte für März. Kılıç 5μm.' })).toEqual(
      {},
    );
  });
});

describe('layout rules', () => {
  it('shouting: a body mostly in capitals, and runs of "!" or "$"', () => {
    const caps = 'BUY THESE AMAZING PRODUCTS TODAY WHILE STOCKS ARE HERE BECAUSE PRICES WILL RISE SOON. ';
    expect(fired({ text: caps })).toEqual({ 'content.spam-shouting': 0.5 });
    expect(fired({ text: `${ORDINARY} Wow!!! Amazing!!! $$$` })).toEqual({ 'content.spam-shouting': 0.5 });
    expect(fired({ text: `${caps} Wow!!! Amazing!!!` })).toEqual({ 'content.spam-shouting': 1 });
    expect(fired({ text: `${ORDINARY} NASA and the FAQ, in HTML and JSON. Great!` })).toEqual({});
  });

  it('image-heavy: little text per picture (an image-only body is a finding of its own)', () => {
    const images =
      '<img src="https://cdn.brand.example/1.jpg"><img src="https://cdn.brand.example/2.jpg"><img src="https://cdn.brand.example/3.jpg">';
    expect(fired({ html: `${images}<p>${ORDINARY}</p>` })).toEqual({ 'content.spam-image-heavy': 0.5 });
    expect(fired({ html: `${images}<p>${ORDINARY} ${ORDINARY} ${ORDINARY}</p>` })).toEqual({});
    expect(fired({ html: `${images}<p>Shop now</p>` })).toEqual({});
  });

  it('hidden text: many words a reader cannot see, not a preheader', () => {
    const filler =
      'harbour violin seldom orchard lantern pebble meadow quarrel thimble saddle ember cobalt willow parchment falcon juniper marble';
    expect(fired({ html: `<p>${ORDINARY}</p><div style="display:none">${filler}</div>` })).toEqual({
      'content.spam-hidden-text': 2,
    });
    expect(
      fired({
        html: `<p>${ORDINARY}</p><div style="display:none">${filler}</div><p style="color:#fff;font-size:12px">${filler}</p>`,
      }),
    ).toEqual({
      'content.spam-hidden-text': 2.5,
    });
    const preheader = 'Faster reports, a cleaner dashboard and better alerts, all in this month’s update.';
    expect(
      fired({ html: `<div style="display:none;max-height:0;overflow:hidden">${preheader}</div><p>${ORDINARY}</p>` }),
    ).toEqual({});
    // Hidden words the reader also sees (a mobile copy of the message) are not filler.
    expect(fired({ html: `<p>${ORDINARY}</p><div style="display:none">${ORDINARY}</div>` })).toEqual({});
  });
});

describe('link rules', () => {
  it('suspicious TLDs: one hit per site', () => {
    const html = `<p>${ORDINARY}</p><a href="https://win.prize-zone.top/a">a</a><a href="https://www.prize-zone.top/b">b</a><a href="https://deals.example.xyz/">c</a>`;
    expect(fired({ html })).toEqual({ 'content.spam-suspicious-tlds': 1.5 });
    expect(fired({ text: `${ORDINARY} https://brand.example.com/top https://brand.shop/` })).toEqual({});
  });

  it('fake unsubscribe links: one that goes nowhere, or to another site than the rest of the message', () => {
    const body = `<p>${ORDINARY}</p><a href="https://brand.example/news">Read</a>`;
    expect(detail({ html: `${body}<a href="#">Unsubscribe</a>` }, 'content.spam-fake-unsubscribe')).toContain(
      '"Unsubscribe" links to "#"',
    );
    expect(
      detail(
        { html: `${body}<a href="https://optout-center.example.net/r">Unsubscribe</a>` },
        'content.spam-fake-unsubscribe',
      ),
    ).toContain('"Unsubscribe" goes to example.net');
    // An ESP's unsubscribe domain is fine when List-Unsubscribe names it too; so is the From domain's own site.
    expect(
      fired({
        html: `${body}<a href="https://list.esp-mail.test/u/1">Unsubscribe</a>`,
        listUnsubscribe: '<https://list.esp-mail.test/u/1>',
      }),
    ).toEqual({});
    expect(
      fired({
        html: `<a href="https://track.esp-mail.test/c/1">Read</a><a href="https://brand.example/u">Unsubscribe</a>`,
      }),
    ).toEqual({});
  });
});

describe('the total', () => {
  it(`is capped at ${MAX_SPAM_CONTENT_POINTS} points, charged biggest first, and every rule that fired is still reported`, () => {
    const text = `Dear friend, act now! Viagra, cialis, levitra, xanax, tramadol with no prescription from our online pharmacy.
      Make money, extra income, financial freedom, guaranteed returns. You have won the lottery: claim your prize.
      As next of kin of my late client, the funds in the dormant account are yours.`;
    const findings = read({ text });
    const charged = findings.reduce((sum, f) => sum + f.deduction, 0);
    expect(charged).toBe(MAX_SPAM_CONTENT_POINTS);
    expect(findings.map((f) => f.id)).toEqual([
      'content.spam-prize-claims',
      'content.spam-money-claims',
      'content.spam-pharmacy',
      'content.spam-urgency',
      'content.spam-impersonal-greeting',
      'content.spam-advance-fee',
    ]);
    const uncharged = findings.filter((f) => f.deduction === 0);
    expect(uncharged.length).toBeGreaterThan(0);
    for (const f of uncharged)
      expect(f.detail).toMatch(
        /This rule is worth \d\.\d points; 0\.0 charged, since the spam-content rules take at most 7 in all\.$/,
      );
  });
});
