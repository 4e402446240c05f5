import type { AnalysisFinding, FindingSeverity } from './finding';

/**
 * Every problem the content check can report, with its severity and the points it takes off the
 * 10-point score, in one table so the weights can be reviewed together.
 *
 * How the amounts were chosen: 1.5 for what filters treat as a strong spam sign on its own (an
 * empty or image-only body, an unreadable message); 1.0 for what breaks a written rule or a
 * provider requirement (RFC 5322 Date, Message-ID, Gmail/Yahoo's List-Unsubscribe for bulk mail)
 * or is a classic phishing/spam trait (URL shorteners, link text showing another domain, fake
 * "Re:"); 0.5 for style problems that add to a spam score but rarely decide it alone. Info
 * findings take nothing. Several problems add up, so a message with a handful of them still ends
 * up clearly below a clean one.
 *
 * Above that scale (ADR 056): 10 for a spam-filter test string (GTUBE: SpamAssassin scores it
 * 1000); 5.5, the blocking amount of ADR 011, for what receivers refuse outright (no From field;
 * no Message-ID, which Gmail refuses); and 4.5 in all for a trait that defines a kind of spam or
 * phishing (a brand's name on another domain's address, an image instead of text, a body of
 * nothing but shortened links, a bulk layout with no way to unsubscribe): alone it leaves 5.5,
 * "Needs work"; with one ordinary companion of spam (no List-Unsubscribe, 1.0) it is below the
 * inbox cut-off of 5.
 *
 * Spam words, disguised words, hidden text and abused link domains are the spam-content engine's,
 * with their own table (spam-content/rules.ts), since their points grow with the evidence.
 */
export const CONTENT_DEDUCTIONS = {
  'content.unparseable': { severity: 'error', deduction: 1.5 },
  'content.no-date': { severity: 'error', deduction: 1.0 },
  'content.invalid-date': { severity: 'error', deduction: 1.0 },
  'content.no-from': { severity: 'error', deduction: 5.5 },
  'content.no-message-id': { severity: 'error', deduction: 5.5 },
  'content.invalid-message-id': { severity: 'warning', deduction: 0.5 },
  'content.no-list-unsubscribe': { severity: 'warning', deduction: 1.0 },
  'content.invalid-list-unsubscribe': { severity: 'warning', deduction: 1.0 },
  'content.no-one-click-unsubscribe': { severity: 'warning', deduction: 0.5 },
  'content.empty-body': { severity: 'error', deduction: 1.5 },
  'content.html-only': { severity: 'warning', deduction: 0.5 },
  'content.text-only': { severity: 'info', deduction: 0 },
  'content.low-text-html-ratio': { severity: 'warning', deduction: 0.5 },
  'content.image-only-body': { severity: 'error', deduction: 4.5 },
  'content.too-many-images': { severity: 'warning', deduction: 0.5 },
  'content.many-links': { severity: 'warning', deduction: 0.5 },
  'content.url-shorteners': { severity: 'warning', deduction: 1.0 },
  /** On top of url-shorteners: 4.5 in all. */
  'content.shortener-only-links': { severity: 'error', deduction: 3.5 },
  /** On top of no-list-unsubscribe: 4.5 in all. */
  'content.bulk-without-unsubscribe': { severity: 'error', deduction: 3.5 },
  'content.deceptive-links': { severity: 'error', deduction: 1.0 },
  'content.insecure-links': { severity: 'info', deduction: 0 },
  'content.html-clipped': { severity: 'warning', deduction: 0.5 },
  'content.large-message': { severity: 'warning', deduction: 0.5 },
  'content.malformed-bytes': { severity: 'warning', deduction: 1.0 },
  'content.empty-subject': { severity: 'warning', deduction: 1.0 },
  'content.subject-all-caps': { severity: 'warning', deduction: 0.5 },
  'content.subject-excessive-punctuation': { severity: 'warning', deduction: 0.5 },
  'content.fake-reply-subject': { severity: 'warning', deduction: 1.0 },
  'content.brand-impersonation': { severity: 'error', deduction: 4.5 },
  'content.gtube': { severity: 'error', deduction: 10 },
  'content.filter-test-string': { severity: 'info', deduction: 0 },
} as const satisfies Record<string, { severity: Exclude<FindingSeverity, 'pass'>; deduction: number }>;

export type ContentProblemId = keyof typeof CONTENT_DEDUCTIONS;

/** The thresholds the checks use, with the reason for each. */
export const CONTENT_LIMITS = {
  /** Visible text under 10% of the HTML's characters: template-heavy or hiding little text in much markup. */
  minTextHtmlRatio: 0.1,
  /** Below this many HTML characters the ratio says nothing (a one-line HTML mail is "mostly markup"). */
  ratioMinHtmlChars: 1000,
  /** With images and fewer visible characters than this, a filter sees an image-only message (SpamAssassin HTML_IMAGE_ONLY_*). */
  imageOnlyMaxTextChars: 100,
  /** More images than this looks like an image catalogue and slows rendering; tracking pixels are not counted. */
  maxImages: 15,
  /** More links than this resembles link spam; a long newsletter with its footer rarely needs more. */
  maxLinks: 40,
  /** From this many links the HTML is a catalogue or newsletter layout, which bulk-sender rules require to offer an unsubscribe. */
  bulkMinLinks: 20,
  /** Gmail clips HTML past ~102 KB ("[Message clipped]", hiding the footer and unsubscribe link); warn from 100 KiB since ESP link rewriting adds bytes. */
  htmlClipBytes: 100 * 1024,
  /** Bulk mail this big carries attachments or embedded images: slow, often filtered, and near some providers' 10 MB cap. */
  largeMessageBytes: 2 * 1024 * 1024,
} as const;

export function pass(id: string, title: string, detail: string | null = null): AnalysisFinding {
  return { id, category: 'content', severity: 'pass', title, detail, deduction: 0, fix: null };
}

export function problem(id: ContentProblemId, title: string, detail: string | null, fix: string): AnalysisFinding {
  const { severity, deduction } = CONTENT_DEDUCTIONS[id];
  return { id, category: 'content', severity, title, detail, deduction, fix };
}
