import { getDomain } from 'tldts';
import type { HtmlAnchor } from '../content-html';
import { SUSPICIOUS_TLDS } from './suspicious-tlds';
import type { Quote } from './text-signals';

/** Link hosts in a TLD that is mostly abuse, one hit per site (two hosts of one domain are one hit). */
export function suspiciousTldLinks(linkDomains: string[]): Quote[] {
  return linkDomains.flatMap((host) => {
    const tld = host.slice(host.lastIndexOf('.') + 1);
    return SUSPICIOUS_TLDS.has(tld) ? [{ key: `tld:${siteOf(host)}`, text: host }] : [];
  });
}

// Link text that offers a way out of the list.
const UNSUBSCRIBE_TEXT = /\b(?:unsubscribe|opt[\s-]?out|remove me|be removed|stop receiving)\b/i;

/** A link whose text offers a way out of the list. */
export const isUnsubscribeLink = (anchor: HtmlAnchor): boolean => UNSUBSCRIBE_TEXT.test(anchor.text);

// Plain text names the way out, then gives its address within a few lines ("To unsubscribe, visit:\n https://...").
const TEXT_UNSUBSCRIBE_URL = new RegExp(`${UNSUBSCRIBE_TEXT.source}[^]{0,200}?https?://`, 'i');

/**
 * Whether the reader sees a way out in the body, as Gmail and Yahoo ask beside List-Unsubscribe: an HTML link whose
 * text offers it, or in a plain-text body a sentence offering it followed by a web address.
 */
export function hasVisibleUnsubscribeLink(anchors: HtmlAnchor[] | null, text: string | null): boolean {
  if (anchors) return anchors.some(isUnsubscribeLink);
  return text !== null && TEXT_UNSUBSCRIBE_URL.test(text.slice(0, 200_000));
}

export interface UnsubscribeContext {
  anchors: HtmlAnchor[];
  /** Raw List-Unsubscribe value, or null. */
  listUnsubscribe: string | null;
  /** The domain of the From address, or null. */
  fromDomain: string | null;
}

/**
 * Unsubscribe links that cannot work or do not belong to the sender: one that goes nowhere ("#",
 * javascript:), or one to a site that neither the other links, nor List-Unsubscribe, nor the From
 * address belong to. An ESP's unsubscribe domain passes: the List-Unsubscribe header names it too.
 */
export function suspectUnsubscribeLinks({ anchors, listUnsubscribe, fromDomain }: UnsubscribeContext): Quote[] {
  const found: Quote[] = [];
  const otherSites = new Set(anchors.filter((a) => !isUnsubscribeLink(a)).flatMap((a) => sitesOf([a.href])));
  const ownSites = new Set([
    ...otherSites,
    ...sitesOf(uris(listUnsubscribe)),
    ...(fromDomain ? [siteOf(fromDomain.toLowerCase())] : []),
  ]);
  for (const anchor of anchors.filter(isUnsubscribeLink)) {
    const href = anchor.href.trim();
    if (!/^(?:https?:|mailto:)/i.test(href)) {
      found.push({
        key: `nowhere:${href}`,
        text: `"${anchor.text.slice(0, 60)}" links to "${href.slice(0, 60)}", which unsubscribes no one`,
      });
      continue;
    }
    const [site] = sitesOf([href]);
    if (site !== undefined && otherSites.size > 0 && !ownSites.has(site)) {
      found.push({
        key: `elsewhere:${site}`,
        text: `"${anchor.text.slice(0, 60)}" goes to ${site}, the other links to ${[...otherSites].slice(0, 3).join(', ')}`,
      });
    }
  }
  return found;
}

/** Whether List-Unsubscribe names at least one address to unsubscribe with. */
export function hasListUnsubscribe(listUnsubscribe: string | null): boolean {
  return uris(listUnsubscribe).length > 0;
}

function uris(listUnsubscribe: string | null): string[] {
  if (listUnsubscribe === null) return [];
  return [...listUnsubscribe.slice(0, 4096).matchAll(/<([^<>]*)>/g)]
    .map((m) => m[1].trim())
    .filter((u) => /^(?:mailto:|https?:\/\/)/i.test(u));
}

function sitesOf(urls: string[]): string[] {
  return urls.flatMap((raw) => {
    try {
      const url = new URL(raw.trim());
      if (url.protocol === 'mailto:') {
        const domain = url.pathname.slice(url.pathname.lastIndexOf('@') + 1).toLowerCase();
        return domain ? [siteOf(domain)] : [];
      }
      return /^https?:$/.test(url.protocol) && url.hostname ? [siteOf(url.hostname)] : [];
    } catch {
      return [];
    }
  });
}

function siteOf(host: string): string {
  return getDomain(host) ?? host;
}
