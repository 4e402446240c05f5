import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * SQL: `child` is `parent` or a subdomain of it (mail.brand.com under brand.com, not xbrand.com).
 * Exact suffix arithmetic, not LIKE: a domain's characters are never wildcards.
 */
export function isSameOrSubdomain(child: SQLWrapper | string, parent: SQLWrapper | string): SQL {
  return sql`(${child} = ${parent} or right(${child}, length(${parent}) + 1) = '.' || ${parent})`;
}
