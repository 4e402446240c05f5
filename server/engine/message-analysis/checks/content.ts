import { simpleParser, type ParsedMail } from 'mailparser';
import { checkBrandImpersonation, type FromAuthor } from './content-brand-impersonation';
import { checkBulkWithoutUnsubscribe } from './content-bulk';
import { checkMessageBytes } from './content-bytes';
import { scanHtml, type HtmlScan } from './content-html';
import { analyzeLinks, type LinkFacts } from './content-links';
import { CONTENT_LIMITS, pass, problem } from './content-rules';
import { checkSubject } from './content-subject';
import { checkFilterTestStrings } from './content-test-strings';
import type { AnalysisFinding } from './finding';
import { hasVisibleUnsubscribeLink } from './spam-content/link-signals';
import { readSpamContent } from './spam-content/read-spam-content';

export { CONTENT_DEDUCTIONS, CONTENT_LIMITS, type ContentProblemId } from './content-rules';

export interface ContentFacts {
  /** The raw message's size in bytes, as received. */
  sizeBytes: number;
  /** Decoded Subject, null when there is no Subject header. */
  subject: string | null;
  /** A text/plain part with something other than whitespace. */
  hasText: boolean;
  /** A text/html part with something other than whitespace. */
  hasHtml: boolean;
  /**
   * Visible text of the HTML part divided by the HTML's length, both in characters, 0..1, four
   * decimals. Visible text is what a reader sees: no tags, comments, script/style/title or text
   * hidden by inline styles, entities decoded, zero-width padding dropped, whitespace runs counted
   * as one space. Over a very large
   * HTML part only the first MAX_HTML_SCAN_CHARS characters are measured. Null without HTML.
   */
  textToHtmlRatio: number | null;
  /** <img> elements in the HTML, tracking pixels (width and height ≤ 2) not counted. */
  imageCount: number;
  /** Clickable http(s) links: the HTML's anchors, or the plain text's URLs when there is no HTML. */
  linkCount: number;
  linkDomains: string[];
  shorteners: string[];
  /** Raw (unfolded) header values. */
  listUnsubscribe: string | null;
  listUnsubscribePost: string | null;
  /** RFC 8058: `List-Unsubscribe-Post: List-Unsubscribe=One-Click` and an https URI in List-Unsubscribe. */
  oneClickUnsubscribe: boolean;
  /** An unsubscribe link the reader sees in the body (hasVisibleUnsubscribeLink). */
  bodyUnsubscribeLink: boolean;
  /** The header is present (whether its value is valid is a finding). */
  hasDate: boolean;
  hasMessageId: boolean;
}

export interface ContentAnalysis {
  findings: AnalysisFinding[];
  facts: ContentFacts;
}

// Only what the checks need: no HTML-to-text conversion (slow on hostile HTML, and we have our own),
// no cid: inlining (it would inflate the HTML we measure for Gmail clipping), no attachment hashing.
const PARSE_OPTIONS = {
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
  keepCidLinks: true,
  skipImageLinks: true,
  checksumAlgo: false,
} as const;

/** The inbound listener caps message size; this guards callers that do not (simulated messages, tests). */
const MAX_PARSE_BYTES = 30 * 1024 * 1024;

/** The content part of message analysis: what the message itself does for or against its deliverability. */
export async function analyzeContent(raw: Buffer): Promise<ContentAnalysis> {
  let mail: ParsedMail;
  try {
    mail = await simpleParser(raw.length > MAX_PARSE_BYTES ? raw.subarray(0, MAX_PARSE_BYTES) : raw, PARSE_OPTIONS);
  } catch (err) {
    return unparseable(raw.length, err);
  }
  const header = headerReader(mail);
  const html = typeof mail.html === 'string' && mail.html.trim() !== '' ? mail.html : null;
  const text = mail.text && mail.text.trim() !== '' ? mail.text : null;
  const scan = html === null ? null : scanHtml(html);
  const links = analyzeLinks(scan?.anchors ?? [], text, html !== null);
  const unsubscribe = { value: header('list-unsubscribe'), post: header('list-unsubscribe-post') };
  const oneClick =
    unsubscribe.post !== null &&
    isOneClickPost(unsubscribe.post) &&
    unsubscribeUris(unsubscribe.value ?? '').some(isHttps);
  const subject = mail.subject ?? (header('subject') === null ? null : '');
  const ratio =
    scan && scan.scannedChars > 0 ? Math.round((scan.text.length / scan.scannedChars) * 10_000) / 10_000 : null;

  const author = fromAuthor(mail);
  const findings = [
    ...checkFilterTestStrings([text, html]),
    checkDate(header('date')),
    ...checkFrom(header('from')),
    checkMessageId(header('message-id')),
    checkBrandImpersonation(author),
    ...checkUnsubscribe(unsubscribe.value, unsubscribe.post, oneClick),
    ...checkBulkWithoutUnsubscribe(scan, links.linkCount, unsubscribe.value),
    ...checkSubject({ subject, isReply: header('in-reply-to') !== null || header('references') !== null }),
    ...checkBody(text !== null, scan, ratio),
    ...checkLinks(links),
    ...readSpamContent({
      subject,
      text,
      html: scan,
      links,
      listUnsubscribe: unsubscribe.value,
      fromDomain: author.address?.includes('@') ? author.address.slice(author.address.lastIndexOf('@') + 1) : null,
    }),
    ...checkSize(raw.length, html),
    checkMessageBytes(raw, [text, html]),
  ];
  return {
    findings,
    facts: {
      sizeBytes: raw.length,
      subject,
      hasText: text !== null,
      hasHtml: html !== null,
      textToHtmlRatio: ratio,
      imageCount: scan?.images.length ?? 0,
      linkCount: links.linkCount,
      linkDomains: links.linkDomains,
      shorteners: links.shorteners,
      listUnsubscribe: unsubscribe.value,
      listUnsubscribePost: unsubscribe.post,
      oneClickUnsubscribe: oneClick,
      bodyUnsubscribeLink: hasVisibleUnsubscribeLink(scan?.anchors ?? null, text),
      hasDate: header('date') !== null,
      hasMessageId: header('message-id') !== null,
    },
  };
}

/** The first raw value of a top-level header, unfolded; mailparser rewrites some (an invalid Date becomes "now"). */
function headerReader(mail: ParsedMail): (name: string) => string | null {
  return (name) => {
    const line = mail.headerLines.find((h) => h.key === name)?.line;
    return line === undefined
      ? null
      : line
          .slice(line.indexOf(':') + 1)
          .replace(/\r?\n[ \t]*/g, ' ')
          .trim();
  };
}

function fromAuthor(mail: ParsedMail): FromAuthor {
  const first = mail.from?.value[0];
  return { name: first?.name ?? '', address: first?.address?.includes('@') ? first.address : null };
}

function unparseable(sizeBytes: number, err: unknown): ContentAnalysis {
  return {
    findings: [
      problem(
        'content.unparseable',
        'The message could not be read as an e-mail',
        `Its headers or MIME structure are broken: ${err instanceof Error ? err.message : String(err)}.`,
        'Build messages with your ESP or a standard mail library so headers and MIME parts follow RFC 5322 and RFC 2045; look for oversized header blocks or thousands of MIME parts.',
      ),
    ],
    facts: {
      sizeBytes,
      subject: null,
      hasText: false,
      hasHtml: false,
      textToHtmlRatio: null,
      imageCount: 0,
      linkCount: 0,
      linkDomains: [],
      shorteners: [],
      listUnsubscribe: null,
      listUnsubscribePost: null,
      oneClickUnsubscribe: false,
      bodyUnsubscribeLink: false,
      hasDate: false,
      hasMessageId: false,
    },
  };
}

// RFC 5322 date-time ("Mon, 23 Nov 2026 10:00:00 +0000"); Date.parse alone accepts nonsense like "garbage 12".
const RFC5322_DATE =
  /^(?:[a-z]{3},\s*)?\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\s+\d{2,4}\s+\d{1,2}:\d{2}(?::\d{2})?\s*(?:[+-]\d{4}|[a-z]{1,5})\b/i;

function checkDate(value: string | null): AnalysisFinding {
  if (value === null) {
    return problem(
      'content.no-date',
      'The message has no Date header',
      'RFC 5322 requires a Date header; receivers and filters penalise messages without one.',
      'Let your mail library or MTA add a Date header (RFC 5322 format, e.g. "Mon, 23 Nov 2026 10:00:00 +0000") to every message.',
    );
  }
  const head = value.slice(0, 200);
  if (!RFC5322_DATE.test(head) || Number.isNaN(Date.parse(head))) {
    return problem(
      'content.invalid-date',
      'The Date header is not a valid date',
      `Date: ${head}`,
      'Write the Date header in RFC 5322 format, e.g. "Mon, 23 Nov 2026 10:00:00 +0000".',
    );
  }
  return pass('content.date', 'The Date header is present and valid', value);
}

/** Several or malformed From fields are the authentication part's (authentication.from-fields); none at all is said here too, since a simulated message has no authentication part. */
function checkFrom(value: string | null): AnalysisFinding[] {
  if (value !== null) return [];
  return [
    problem(
      'content.no-from',
      'The message has no From header',
      'RFC 5322 (3.6) requires a From header; Gmail rejects messages without one as not RFC 5322 compliant, and readers cannot see who wrote it.',
      'Add one From header with an address at the domain whose SPF and DKIM you set up, e.g. "From: Brand <news@your-domain>".',
    ),
  ];
}

function checkMessageId(value: string | null): AnalysisFinding {
  if (value === null) {
    return problem(
      'content.no-message-id',
      'The message has no Message-ID header',
      'RFC 5322 (3.6.4) says every message should have one, and Gmail refuses messages without a valid one (its SMTP error 550 5.7.1: "Messages missing a valid messageId header are not accepted").',
      'Have your mail library or MTA add a unique Message-ID such as <unique-id@your-domain.com> to every message.',
    );
  }
  const head = value.slice(0, 998);
  if (!/^<[^<>\s@]+@[^<>\s@]+>$/.test(head)) {
    return problem(
      'content.invalid-message-id',
      'The Message-ID header is malformed',
      `Message-ID: ${head}`,
      'Use the form <unique-id@your-domain.com>, angle brackets included.',
    );
  }
  return pass('content.message-id', 'The Message-ID header is present', value);
}

function unsubscribeUris(value: string): string[] {
  return [...value.slice(0, 4096).matchAll(/<([^<>]*)>/g)]
    .map((m) => m[1].trim())
    .filter((u) => /^(?:mailto:|https?:\/\/)/i.test(u));
}
const isHttps = (uri: string) => /^https:\/\//i.test(uri);
const isOneClickPost = (value: string) => value.trim().toLowerCase() === 'list-unsubscribe=one-click';

function checkUnsubscribe(value: string | null, post: string | null, oneClick: boolean): AnalysisFinding[] {
  const howTo =
    'Add "List-Unsubscribe: <https://your-domain.com/unsubscribe?u=…>, <mailto:unsubscribe@your-domain.com>" and "List-Unsubscribe-Post: List-Unsubscribe=One-Click", both covered by your DKIM signature.';
  if (value === null) {
    return [
      problem(
        'content.no-list-unsubscribe',
        'The message has no List-Unsubscribe header',
        'Gmail and Yahoo require it (with one-click unsubscribe) from bulk senders since 2024; without it, recipients press "Report spam" instead.',
        howTo,
      ),
    ];
  }
  const uris = unsubscribeUris(value);
  if (uris.length === 0) {
    return [
      problem(
        'content.invalid-list-unsubscribe',
        'The List-Unsubscribe header has no usable address',
        `List-Unsubscribe: ${value.slice(0, 300)} (expected <mailto:…> and/or <https://…> in angle brackets).`,
        howTo,
      ),
    ];
  }
  const methods = [
    uris.some((u) => /^mailto:/i.test(u)) && 'mailto',
    uris.some(isHttps) && 'https',
    uris.some((u) => /^http:/i.test(u)) && 'http',
  ]
    .filter(Boolean)
    .join(' and ');
  const findings = [
    pass('content.list-unsubscribe', 'The message has a List-Unsubscribe header', `Unsubscribe by ${methods}.`),
  ];
  if (oneClick) {
    findings.push(
      pass(
        'content.one-click-unsubscribe',
        'One-click unsubscribe (RFC 8058) is set up',
        'List-Unsubscribe-Post: List-Unsubscribe=One-Click with an https address.',
      ),
    );
  } else {
    const why =
      post === null
        ? 'There is no List-Unsubscribe-Post header.'
        : !isOneClickPost(post)
          ? `List-Unsubscribe-Post is "${post.slice(0, 100)}"; it must be exactly "List-Unsubscribe=One-Click".`
          : 'List-Unsubscribe-Post is set, but List-Unsubscribe has no https address to POST to.';
    findings.push(
      problem(
        'content.no-one-click-unsubscribe',
        'One-click unsubscribe (RFC 8058) is not set up',
        `${why} Gmail and Yahoo require one-click unsubscribe from bulk senders.`,
        'Add "List-Unsubscribe-Post: List-Unsubscribe=One-Click", put an https URL in List-Unsubscribe that unsubscribes on a POST without further steps, and sign both headers with DKIM.',
      ),
    );
  }
  return findings;
}

function checkBody(hasText: boolean, scan: HtmlScan | null, ratio: number | null): AnalysisFinding[] {
  const hasHtml = scan !== null;
  if (!hasText && (!scan || (scan.text === '' && scan.images.length === 0))) {
    return [
      problem(
        'content.empty-body',
        'The message has no readable content',
        'Neither a text nor an HTML part has any visible text or images.',
        'Send the actual message content in a text/plain part and, if you use HTML, a text/html part.',
      ),
    ];
  }
  const findings: AnalysisFinding[] = [];
  if (hasText && hasHtml)
    findings.push(pass('content.text-and-html', 'The message has both a plain-text and an HTML version'));
  else if (hasHtml)
    findings.push(
      problem(
        'content.html-only',
        'The message has HTML but no plain-text version',
        'HTML-only mail is a common spam trait, and text-only readers see nothing useful.',
        'Send multipart/alternative with a text/plain part carrying the same content as the HTML (most ESPs can generate it).',
      ),
    );
  else
    findings.push(
      problem(
        'content.text-only',
        'The message is plain text only',
        'That is fine for deliverability; plain text is what personal mail looks like.',
        'Nothing to do, unless you want formatting or images, then add an HTML part alongside the text.',
      ),
    );
  if (!scan) return findings;

  const images = scan.images.length;
  const imageOnly = images > 0 && scan.text.length < CONTENT_LIMITS.imageOnlyMaxTextChars;
  if (imageOnly) {
    findings.push(
      problem(
        'content.image-only-body',
        'The HTML is images with almost no text',
        `${images} image(s) and only ${scan.text.length} characters of visible text.`,
        `Put the message in real HTML text (at least a few sentences, ${CONTENT_LIMITS.imageOnlyMaxTextChars}+ characters) and use images to illustrate it; give images alt text.`,
      ),
    );
  } else {
    findings.push(
      pass(
        'content.image-text-balance',
        'The HTML has real text, not just images',
        `${scan.text.length} characters of visible text, ${images} image(s).`,
      ),
    );
  }
  if (images > CONTENT_LIMITS.maxImages) {
    findings.push(
      problem(
        'content.too-many-images',
        'The message has many images',
        `${images} images (more than ${CONTENT_LIMITS.maxImages}).`,
        `Use fewer, lighter images (${CONTENT_LIMITS.maxImages} or fewer) and carry the message in text.`,
      ),
    );
  } else {
    findings.push(pass('content.image-count', 'The number of images is reasonable', `${images} image(s).`));
  }
  // An image-only body is already explained (and deducted) above; its ratio is low for the same reason.
  if (ratio !== null && !imageOnly && scan.scannedChars >= CONTENT_LIMITS.ratioMinHtmlChars) {
    const percent = `${(ratio * 100).toFixed(1)}%`;
    if (ratio < CONTENT_LIMITS.minTextHtmlRatio) {
      findings.push(
        problem(
          'content.low-text-html-ratio',
          'The HTML is mostly markup, with little text',
          `Visible text is ${percent} of the HTML (under ${CONTENT_LIMITS.minTextHtmlRatio * 100}%).`,
          'Trim unused CSS, comments and nested layout tables (or inline only the styles you use), and make sure the message has real text content.',
        ),
      );
    } else {
      findings.push(
        pass(
          'content.text-html-ratio',
          'The HTML has a healthy share of text',
          `Visible text is ${percent} of the HTML.`,
        ),
      );
    }
  }
  return findings;
}

function checkLinks(links: LinkFacts): AnalysisFinding[] {
  const list = (items: string[]) =>
    items.slice(0, 5).join(', ') + (items.length > 5 ? ` and ${items.length - 5} more` : '');
  return [
    links.linkCount > CONTENT_LIMITS.maxLinks
      ? problem(
          'content.many-links',
          'The message has many links',
          `${links.linkCount} links (more than ${CONTENT_LIMITS.maxLinks}).`,
          `Keep to the links readers need (${CONTENT_LIMITS.maxLinks} or fewer); link to a web page for the rest.`,
        )
      : pass(
          'content.link-count',
          'The number of links is reasonable',
          `${links.linkCount} link(s) to ${links.linkDomains.length} domain(s).`,
        ),
    links.shorteners.length > 0
      ? problem(
          'content.url-shorteners',
          'The message links through public URL shorteners',
          `Shorteners: ${list(links.shorteners)}.`,
          'Link to your own domain directly (or a branded short domain you own); public shorteners are shared with spammers and blocklisted.',
        )
      : pass('content.no-shorteners', 'No public URL shorteners are used'),
    ...(links.shorteners.length > 0 && links.shorteners.length === links.linkDomains.length
      ? [
          problem(
            'content.shortener-only-links',
            'Every link hides its destination behind a URL shortener',
            `Every link goes to ${list(links.shorteners)}: neither the reader nor a filter can see where a single one leads, which is how spam and phishing get past URL blocklists.`,
            'Link to the real pages on your own domain, so readers and filters can see where each link goes; if you need short links, use a branded short domain you own.',
          ),
        ]
      : []),
    links.deceptive.length > 0
      ? problem(
          'content.deceptive-links',
          'Link text shows a different address than the link goes to',
          list(links.deceptive.map((d) => `"${d.text.slice(0, 80)}" goes to ${d.href.slice(0, 120)}`)),
          'Make each link\'s text describe the destination ("Read the report") or show the same domain the link goes to; if your ESP\'s click tracking rewrites links, use a branded tracking domain and do not show raw URLs as link text.',
        )
      : pass('content.link-text-matches', 'Link text does not disguise where links go'),
    links.insecure.length > 0
      ? problem(
          'content.insecure-links',
          'Some links use http:// instead of https://',
          list(links.insecure.map((u) => u.slice(0, 120))),
          'Serve the linked pages over HTTPS and link to the https:// addresses.',
        )
      : pass('content.https-links', 'All links use https:// (or there are none)'),
  ];
}

function checkSize(sizeBytes: number, html: string | null): AnalysisFinding[] {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const findings: AnalysisFinding[] = [];
  if (html !== null) {
    const htmlBytes = Buffer.byteLength(html, 'utf8');
    findings.push(
      htmlBytes > CONTENT_LIMITS.htmlClipBytes
        ? problem(
            'content.html-clipped',
            'Gmail will clip this HTML',
            `The HTML is ${kb(htmlBytes)}; Gmail cuts off messages past about 102 KB, hiding the rest (often the unsubscribe link) behind "View entire message".`,
            'Get the HTML under 100 KB: remove unused CSS and comments, simplify nested tables, and minify.',
          )
        : pass('content.html-size', 'The HTML is small enough not to be clipped by Gmail', `${kb(htmlBytes)} of HTML.`),
    );
  }
  findings.push(
    sizeBytes > CONTENT_LIMITS.largeMessageBytes
      ? problem(
          'content.large-message',
          'The message is very large',
          `${kb(sizeBytes)} in total.`,
          'Link to files and host images on the web instead of attaching or embedding them; keep bulk mail well under 1 MB.',
        )
      : pass('content.message-size', 'The message size is reasonable', `${kb(sizeBytes)} in total.`),
  );
  return findings;
}
