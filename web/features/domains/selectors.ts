/**
 * DKIM selectors typed by the user: separated by commas, spaces or lines; trimmed, lower-cased and
 * without repeats, in the order typed. The server validates each one (contracts/domains.ts).
 */
export function parseSelectors(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\s,;]+/)) {
    const selector = part.trim().toLowerCase();
    if (selector) seen.add(selector);
  }
  return [...seen];
}
