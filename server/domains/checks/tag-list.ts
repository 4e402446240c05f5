/**
 * A tag=value list as DKIM (RFC 6376 3.2), DMARC, MTA-STS, TLS-RPT and BIMI records write them:
 * tags separated by ";", white space allowed around "=" and ";". Tag names are lower-cased.
 */
export function parseTags(record: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const part of record.split(';')) {
    const i = part.indexOf('=');
    if (i > 0) tags[part.slice(0, i).trim().toLowerCase()] = part.slice(i + 1).trim();
  }
  return tags;
}
