import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/*
 * A domain column read backwards, so that a domain and its subdomains sort together (moc.dnarb, moc.dnarb.liam)
 * and "brand.com or a subdomain of it" is one equality and one prefix range an index on this expression serves.
 * Byte order (collation "C"): under a language's collation '.' and '/' need not be neighbours.
 */
export function reversedDomain(column: SQLWrapper): SQL {
  return sql`(reverse(${column}) collate "C")`;
}

/**
 * SQL: the column's domain is `parent` or a subdomain of it, as isSameOrSubdomain (domain-match.ts) says, in the
 * form an index on reversedDomain(column) serves: its reversed name equals the parent's, or starts with the
 * parent's reversed name and a dot ('/' is the character after '.', so the range holds exactly those names).
 */
export function isSameOrSubdomainIndexed(column: SQLWrapper, parent: string): SQL {
  const name = [...parent].reverse().join('');
  const reversed = reversedDomain(column);
  return sql`(${reversed} = ${name} or (${reversed} > ${`${name}.`} and ${reversed} < ${`${name}/`}))`;
}
