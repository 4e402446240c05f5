import { getDomain, parse } from 'tldts';
import type { HtmlAnchor } from './content-html';

/**
 * Public URL shorteners. Spammers use them to hide the destination, so blocklists (Spamhaus DBL,
 * SURBL) list them and filters weigh any link through them; a branded short domain is fine.
 */
export const URL_SHORTENERS = [
  'bit.ly',
  'bitly.com',
  'tinyurl.com',
  't.co',
  'goo.gl',
  'ow.ly',
  'is.gd',
  'v.gd',
  'buff.ly',
  'rebrand.ly',
  'cutt.ly',
  'shorturl.at',
  'tiny.cc',
  'rb.gy',
  't.ly',
  'bl.ink',
  'bit.do',
  'shorte.st',
  'adf.ly',
  'lnkd.in',
  'soo.gd',
  'qr.ae',
  'x.co',
  'po.st',
  'clck.ru',
  'tr.im',
  'mcaf.ee',
  's.id',
  'urlz.fr',
  'u.to',
] as const;

const SHORTENERS = new Set<string>(URL_SHORTENERS);

/** Plain-text parts are read up to this many characters for URLs, for the same reason as MAX_HTML_SCAN_CHARS. */
const MAX_TEXT_SCAN_CHARS = 1_000_000;

export interface LinkFacts {
  /** http(s) links a reader can click: the HTML's anchors, or the plain text's URLs when there is no HTML. */
  linkCount: number;
  /** Host names of every http(s) link in either part, lower case, sorted. */
  linkDomains: string[];
  /** The shortener hosts among them. */
  shorteners: string[];
  /** http:// (not TLS) links, as written. */
  insecure: string[];
  /** Anchors whose visible text is a URL or domain on a different site than the link goes to. */
  deceptive: { text: string; href: string }[];
  /** Host and path of every distinct http(s) link in either part (no query: it is tracking noise), for the words in them. */
  targets: string[];
}

export function analyzeLinks(anchors: HtmlAnchor[], plainText: string | null, hasHtml: boolean): LinkFacts {
  const htmlLinks = anchors.flatMap((a) => {
    const url = webUrl(a.href);
    return url ? [{ url, raw: a.href, text: a.text }] : [];
  });
  const textLinks = (plainText ? urlsInText(plainText) : []).flatMap((raw) => {
    const url = webUrl(raw);
    return url ? [{ url, raw }] : [];
  });
  const all = [...htmlLinks, ...textLinks];

  const domains = [...new Set(all.map((l) => l.url.hostname))].sort();
  const deceptive = htmlLinks.flatMap((l) => {
    const shown = domainShownIn(l.text);
    return shown && shown !== siteOf(l.url.hostname) ? [{ text: l.text, href: l.raw }] : [];
  });
  return {
    linkCount: hasHtml ? htmlLinks.length : textLinks.length,
    linkDomains: domains,
    shorteners: domains.filter(isShortener),
    insecure: [...new Set(all.filter((l) => l.url.protocol === 'http:').map((l) => l.raw))],
    deceptive,
    targets: [...new Set(all.map((l) => `${l.url.hostname}${l.url.pathname}`))],
  };
}

function webUrl(raw: string): URL | null {
  if (!/^\s*https?:/i.test(raw)) return null;
  try {
    const url = new URL(raw.trim());
    return url.hostname ? url : null;
  } catch {
    return null;
  }
}

function urlsInText(text: string): string[] {
  const urls: string[] = [];
  // One character class with '+': each match consumes what it scans, so the pass stays linear.
  for (const m of text.slice(0, MAX_TEXT_SCAN_CHARS).matchAll(/https?:\/\/[^\s<>"'`]+/gi))
    urls.push(trimTrailingPunctuation(m[0]));
  return urls;
}

/** "see https://x.com/a." links to https://x.com/a; a loop, because a regex like /[.,]+$/ backtracks quadratically. */
function trimTrailingPunctuation(url: string): string {
  let end = url.length;
  while (end > 0 && '.,;:!?)]}'.includes(url[end - 1])) end--;
  return url.slice(0, end);
}

function isShortener(host: string): boolean {
  const bare = host.startsWith('www.') ? host.slice(4) : host;
  return SHORTENERS.has(bare);
}

/** The site (registrable domain, or the host itself for IPs and intranet names) a host belongs to. */
function siteOf(host: string): string {
  return getDomain(host) ?? host;
}

/**
 * The site a link's visible text names, when the text reads as a URL or a bare domain
 * ("https://paypal.com/login", "www.paypal.com", "paypal.com"); null for ordinary words.
 */
function domainShownIn(text: string): string | null {
  if (text.length === 0 || text.length > 300 || /\s/.test(text) || !text.includes('.')) return null;
  const hasScheme = /^https?:\/\//i.test(text);
  let host: string;
  try {
    host = new URL(hasScheme ? text : `http://${text}`).hostname;
  } catch {
    return null;
  }
  const parsed = parse(host);
  // Without a scheme, only a real public suffix makes it a domain: "v1.2" or "index.html" are not.
  if (!parsed.domain || (!hasScheme && !parsed.isIcann)) return hasScheme && parsed.isIp ? host : null;
  return parsed.domain;
}
