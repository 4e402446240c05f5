import { getDomain } from 'tldts';
import { pass, problem } from './content-rules';
import { BRAND_SERVICE_WORDS, PHISHING_BRANDS, type PhishingBrand } from './content-phishing-brands';
import type { AnalysisFinding } from './finding';
import { canonicalWord } from './spam-content/normalise';

export interface FromAuthor {
  /** Decoded display name, '' when there is none. */
  name: string;
  /** The address, null when the From field has none. */
  address: string | null;
}

// Brand names and service words meet the display name in one canonical form, so "PayPa1" or a
// Cyrillic "Міcrosoft" reads as the brand it imitates.
const key = (word: string) => canonicalWord(word).key;
const SERVICE_KEYS = new Set([...BRAND_SERVICE_WORDS].map(key));
const MAX_NAME_CHARS = 200;
const BRANDS = PHISHING_BRANDS.map((brand) => ({ brand, names: brand.names.map((words) => words.map(key)) }));

/**
 * A display name that presents the message as a phishing-targeted brand's ("Microsoft 365",
 * "PayPal Service") on an address at a domain that is not the brand's: what the reader sees says
 * Microsoft, the address says someone else. The brand's own domains (and their subdomains) pass.
 */
export function checkBrandImpersonation(from: FromAuthor): AnalysisFinding {
  // A brand's display name is a few words; a longer one is read no further than that.
  const words = from.name
    .slice(0, MAX_NAME_CHARS)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(key);
  const claimed = words.length > 0 ? brandClaimedBy(words) : null;
  if (claimed === null || from.address === null) {
    return pass('content.display-name', 'The display name does not pose as a brand phishing uses');
  }
  const domain = from.address.slice(from.address.lastIndexOf('@') + 1).toLowerCase();
  const site = getDomain(domain) ?? domain;
  if (claimed.domains.includes(site)) {
    return pass('content.display-name', "The display name names a brand, sent from that brand's own domain", domain);
  }
  return problem(
    'content.brand-impersonation',
    'The display name poses as a brand the address does not belong to',
    `The From name is "${from.name.slice(0, 80)}" but the address is ${from.address.slice(0, 120)}; ${claimed.domains[0]} is where that brand sends from. A brand's name on another domain's address is how most phishing presents itself, and receivers' impersonation protection and readers' "Report phishing" both act on it.`,
    `Put your own name in the display name (the company or person the domain ${domain} belongs to), e.g. "Acme Billing"; if you send on a brand's behalf, send from that brand's domain with its authorisation and DKIM signature.`,
  );
}

/** The brand a display name presents itself as: the brand's name plus only service words (never another name). */
function brandClaimedBy(keys: string[]): PhishingBrand | null {
  for (const { brand, names } of BRANDS) {
    for (const name of names) {
      const at = indexOfRun(keys, name);
      if (at < 0) continue;
      const rest = [...keys.slice(0, at), ...keys.slice(at + name.length)];
      if (!rest.every((k) => SERVICE_KEYS.has(k))) continue;
      // "Chase" alone is a person; "Chase Alerts" is the bank.
      if (brand.givenName && rest.length === 0) continue;
      return brand;
    }
  }
  return null;
}

function indexOfRun(keys: string[], run: string[]): number {
  for (let i = 0; i + run.length <= keys.length; i++) if (run.every((k, j) => keys[i + j] === k)) return i;
  return -1;
}
