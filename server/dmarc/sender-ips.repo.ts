import { sql } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { dmarcSourceDays } from '../platform/db/schema/index';

/** A sending IP and how many messages it sent. */
export interface SenderIp {
  ip: string;
  messages: number;
}

/**
 * The source IPs of a domain's DMARC aggregate reports since `sinceDays` ago, those with the most
 * messages first: the servers receivers saw sending as the domain (spoofers included).
 */
export async function dmarcSenderIps(ex: Executor, userId: number, domain: string, sinceDays: number, limit: number): Promise<SenderIp[]> {
  const result = (await ex.execute(sql`
    select source_ip as ip, sum(total)::float8 as messages
    from ${dmarcSourceDays}
    where user_id = ${userId} and domain = ${domain} and day >= current_date - ${sinceDays}::int
    group by source_ip
    order by sum(total) desc, source_ip
    limit ${limit}`)) as unknown as { rows: SenderIp[] };
  return result.rows;
}
