/**
 * Every rule of the spam-content engine with its weight, in one table so the weights can be
 * reviewed together (ADR 018). A rule that fires is one finding, whatever number of words set it off.
 *
 * Points grow with the evidence and stop: `first` for the first distinct hit, `each` for every
 * further distinct hit, never more than `max`. A hit in the subject counts SUBJECT_WEIGHT times,
 * since the subject is what filters and readers weigh first. So one stray "limited time" costs
 * 0.5, five drug names cost 3.5, and repeating a word costs nothing more.
 *
 * How the amounts were chosen (ADR 011's scale: 1.5 is a strong spam sign by itself, 1.0 a classic
 * trait, 0.5 adds to a score without deciding it):
 * - `first` 1.5 to 2.0: words and tricks legitimate mail has no use for (drug names, adult words,
 *   the vocabulary of advance-fee fraud, replicas, disguised words, look-alike letters, hidden
 *   text, "reply REMOVE" without a List-Unsubscribe header).
 * - `first` 1.0: claims that ordinary mail makes now and then but spam lives on (prizes, easy
 *   money, loans for bad credit, threats to an account, "Dear friend", SEO pitches), and links into
 *   TLDs that are mostly abuse.
 * - `first` 0.5: pressure and shouting, which marketing uses too, and text carried by pictures.
 * - `max` 4 to 5 for the topic rules: a message that is nothing but one kind of spam (eight
 *   distinct phrases of it) is spam on its own, below the inbox cut-off of 5 once the ordinary
 *   companions of spam (no List-Unsubscribe, pressure) are added; no legitimate message in the
 *   calibration corpus has more than one strong phrase of any topic rule. Lower maxima where the
 *   words are common in honest mail (urgency 1.5, shouting 1.0, greeting 1.0).
 * The engine's total is capped at MAX_SPAM_CONTENT_POINTS (see there).
 */

export type SpamContentFamily = 'words' | 'disguise' | 'layout' | 'links';

export interface SpamContentRule {
  family: SpamContentFamily;
  severity: 'warning' | 'error';
  points: { first: number; each: number; max: number };
  title: string;
  /** What a filter sees; the finding's detail adds the hits it found. */
  explanation: string;
  fix: string;
}

/** A hit in the subject counts this many times. */
export const SUBJECT_WEIGHT = 2;

/** The most text (subject, HTML text, plain text, link targets, in that order) read for words in one message. */
export const MAX_SCANNED_TEXT_CHARS = 200_000;

/**
 * The most the engine takes off in all. Words are one kind of evidence: at 7 the worst-worded
 * message, with everything else right, scores 3 (well under the inbox cut-off of 5), and what the
 * rest of the analysis finds (authentication, reputation, SpamAssassin, a shouting subject) still
 * shows in the score instead of vanishing under the floor of 0. Rules are charged biggest first;
 * a rule past the cap is still reported, with what it was not charged.
 */
export const MAX_SPAM_CONTENT_POINTS = 7;

/** The most hits quoted in a finding's detail. */
export const MAX_QUOTED_HITS = 5;

export const SPAM_CONTENT_RULES = {
  'content.spam-prize-claims': {
    family: 'words',
    severity: 'warning',
    points: { first: 1.0, each: 0.5, max: 4.0 },
    title: 'The message announces a prize or a win',
    explanation:
      'Lottery wins, selected winners and prizes to claim are the opening of most prize-fraud mail, and filters score them.',
    fix: 'If you run a real contest, name it, its rules page and how the winner was chosen, and write "the winner of our photo contest" rather than "you have won"; never announce a win the reader did not enter for.',
  },
  'content.spam-money-claims': {
    family: 'words',
    severity: 'warning',
    points: { first: 1.0, each: 0.5, max: 4.0 },
    title: 'The message promises easy money',
    explanation:
      'Promises of income, guaranteed returns, risk-free money, casino bonuses and sums in the millions are what filters look for in money-making, gambling and investment spam.',
    fix: 'Describe the actual product or service and its real terms; drop "make money", "guaranteed returns", "risk free", bonus offers and large sums, which no filter reads as a normal business message.',
  },
  'content.spam-loan-offers': {
    family: 'words',
    severity: 'warning',
    points: { first: 1.0, each: 0.5, max: 4.0 },
    title: 'The message pitches loans or debt relief',
    explanation:
      'Loans "for bad credit", "no credit check" and "instant approval", payday cash and debt relief are a large share of spam, and filters weigh those phrases.',
    fix: 'Lenders should send such offers only to customers who asked for them, state the lender, the rates and the terms plainly, and avoid "no credit check" or "guaranteed approval" wording.',
  },
  'content.spam-pharmacy': {
    family: 'words',
    severity: 'error',
    points: { first: 1.5, each: 0.5, max: 5.0 },
    title: 'The message sells medicines the way pharmacy spam does',
    explanation:
      'Drug names (erectile-dysfunction pills, painkillers, sedatives, diet pills) and "no prescription" offers are among the most filtered words in mail.',
    fix: 'Pharmacies and health brands should not name prescription drugs in marketing mail; link to the product page instead, and never offer medicines "without prescription".',
  },
  'content.spam-adult': {
    family: 'words',
    severity: 'error',
    points: { first: 1.5, each: 0.5, max: 5.0 },
    title: 'The message uses adult or dating-spam words',
    explanation:
      'Sexual words and "hot singles"-style dating invitations are filtered almost everywhere, and many receivers block them outright.',
    fix: 'Remove explicit words from the subject and body; adult services may only mail people who opted in, and should say so plainly.',
  },
  'content.spam-counterfeit-goods': {
    family: 'words',
    severity: 'error',
    points: { first: 1.5, each: 0.5, max: 5.0 },
    title: 'The message offers replicas or cheap copies',
    explanation:
      'Replica watches, designer copies and cheap licence-free software are classic spam products; filters and brand-protection blocklists look for them.',
    fix: 'Do not sell or advertise copies of branded goods. A genuine reseller should name the brand, the authorised-dealer status and the real price.',
  },
  'content.spam-seo-pitch': {
    family: 'words',
    severity: 'warning',
    points: { first: 1.0, each: 0.5, max: 4.0 },
    title: 'The message reads like an unsolicited SEO or web-services pitch',
    explanation:
      '"First page of Google", backlinks and "I was looking at your website" are the words of cold SEO spam, one of the most reported kinds of business spam.',
    fix: 'Send sales mail only to people who asked for it, address them by name, say who you are and why you write, and leave out ranking promises.',
  },
  'content.spam-urgency': {
    family: 'words',
    severity: 'warning',
    points: { first: 0.5, each: 0.5, max: 1.5 },
    title: 'The message pushes the reader to act at once',
    explanation:
      '"Act now", "urgent", "limited time" and "last chance" add to a spam score; several together are how pressure mail reads.',
    fix: 'State a real deadline once ("The sale ends on 30 November") instead of urgency phrases, and keep one clear call to action.',
  },
  'content.spam-account-threats': {
    family: 'words',
    severity: 'warning',
    points: { first: 1.0, each: 0.5, max: 4.0 },
    title: 'The message threatens an account or a delivery unless the reader acts',
    explanation:
      '"Verify your account", "your account will be suspended", "mailbox full", "your parcel is on hold until you pay a fee": the words of phishing, which filters and users report at once.',
    fix: 'Security, billing and delivery notices should say what happened, name the account or order, and tell the reader to sign in the usual way (typing your address) rather than through a link; never threaten closure or ask for a fee by e-mail.',
  },
  'content.spam-impersonal-greeting': {
    family: 'words',
    severity: 'warning',
    points: { first: 1.0, each: 0, max: 1.0 },
    title: 'The greeting does not know who it writes to',
    explanation:
      '"Dear friend", "Dear beneficiary", "Dear valued customer": a greeting for anyone is the mark of mail sent to a bought list, and filters score it.',
    fix: 'Greet the reader by name (your ESP can merge it in), or leave the greeting out.',
  },
  'content.spam-advance-fee': {
    family: 'words',
    severity: 'error',
    points: { first: 1.5, each: 0.5, max: 5.0 },
    title: 'The message reads like an advance-fee ("419") scam',
    explanation:
      'Next of kin, dormant accounts, a barrister, funds to transfer for a share, a fee to release them: the vocabulary of advance-fee fraud, which filters know well.',
    fix: 'Legitimate estate, banking or legal mail names the firm, the case and a verifiable contact, and never asks for a fee or secrecy; rewrite or do not send.',
  },
  'content.spam-fake-unsubscribe': {
    family: 'links',
    severity: 'error',
    points: { first: 1.5, each: 0.5, max: 2.5 },
    title: 'The way to unsubscribe looks fake',
    explanation:
      'A message with no List-Unsubscribe header that asks for a reply with "REMOVE", or an unsubscribe link that leads nowhere or to another site than the rest of the message, is what spam does instead of a working opt-out.',
    fix: 'Add "List-Unsubscribe" with an https link and "List-Unsubscribe-Post: List-Unsubscribe=One-Click", and put a working unsubscribe link to your own (or your ESP\'s) domain in the footer.',
  },
  'content.spam-obfuscated-words': {
    family: 'disguise',
    severity: 'error',
    points: { first: 1.5, each: 0.5, max: 3.0 },
    title: 'Spam words are disguised with digits, spacing or punctuation',
    explanation:
      'Words like "V1AGRA", "m1ll10n", "f r e e" or "ca-sino" are written to slip past word filters; filters undo the disguise, and the disguise itself is a spam sign.',
    fix: 'Write words normally. If a word is only acceptable disguised, it does not belong in the message.',
  },
  'content.spam-lookalike-characters': {
    family: 'disguise',
    severity: 'error',
    points: { first: 1.5, each: 0.5, max: 3.0 },
    title: 'Words are written with look-alike or invisible characters',
    explanation:
      'Cyrillic or Greek letters mixed into Latin words, full-width or styled letters, and zero-width characters inside words look normal to a reader but are different text to a filter: a classic way to hide spam words and fake brand names.',
    fix: 'Type the text in plain Latin letters (check text pasted from other tools) and remove zero-width characters from words; keep them, if at all, only in preheader padding.',
  },
  'content.spam-shouting': {
    family: 'layout',
    severity: 'warning',
    points: { first: 0.5, each: 0.5, max: 1.0 },
    title: 'The body shouts: capitals and runs of "!", "?" or "$"',
    explanation: 'Long stretches of capitals and runs like "!!!" or "$$$" add to spam scores and read as pressure.',
    fix: 'Write in sentence case, keep capitals for names and short headings, and use one exclamation mark at most.',
  },
  'content.spam-image-heavy': {
    family: 'layout',
    severity: 'warning',
    points: { first: 0.5, each: 0, max: 0.5 },
    title: 'Pictures carry more of the message than text',
    explanation:
      'Filters cannot read text in images, so mail with little text per image is weighed as a way around them (image spam), and many readers see blank boxes.',
    fix: 'Put the message in HTML text (at least a couple of sentences per image) and keep images for illustration, each with alt text.',
  },
  'content.spam-hidden-text': {
    family: 'layout',
    severity: 'error',
    points: { first: 2.0, each: 0.5, max: 3.0 },
    title: 'The HTML hides text from the reader',
    explanation:
      'Text in display:none blocks, in 0–2px fonts or in the colour of its background is text written for filters, not people (usually random words to dilute spam words); filters look for it.',
    fix: 'Remove hidden text. A preheader (one short sentence hidden for the inbox preview) is fine; anything longer must be visible.',
  },
  'content.spam-suspicious-tlds': {
    family: 'links',
    severity: 'warning',
    points: { first: 1.0, each: 0.5, max: 2.0 },
    title: 'Links go to domains in top-level domains mostly used for abuse',
    explanation:
      'Most names registered under some cheap TLDs (.top, .xyz, .click, .loan and others) serve spam or phishing, so filters and URL blocklists distrust links into them.',
    fix: 'Link to your main domain (a .com, a country TLD or another well-kept TLD), and host landing pages and tracking there.',
  },
} as const satisfies Record<string, SpamContentRule>;

export type SpamContentRuleId = keyof typeof SPAM_CONTENT_RULES;

/** The points a rule takes for `hits` distinct hits (subject hits already counted SUBJECT_WEIGHT times). */
export function rulePoints(id: SpamContentRuleId, hits: number): number {
  if (hits <= 0) return 0;
  const { first, each, max } = SPAM_CONTENT_RULES[id].points;
  return Math.min(max, first + each * (hits - 1));
}
