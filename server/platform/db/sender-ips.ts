import { sql } from 'drizzle-orm';
import type { Executor } from './client';
import { dmarcSourceDays, inboxTestReports, inboxTests } from './schema/index';

// The sending IPs the product has seen for a user's domain, read by the domain checks (an SPF
// record built from the sender is evaluated for each, ADR 037) from the tables of the DMARC and
// inbox-test capabilities, without depending on them: both depend on the domains capability.

/** A sending IP and how many messages it sent. */
export interface SenderIp {
  ip: string;
  messages: number;
}

/**
 * The source IPs of a domain's DMARC aggregate reports since `sinceDays` ago, those with the most
 * messages first: the servers receivers saw sending as the domain (spoofers included).
 */
export async function dmarcSenderIps(
  ex: Executor,
  userId: number,
  domain: string,
  sinceDays: number,
  limit: number,
): Promise<SenderIp[]> {
  const result = (await ex.execute(sql`
    select source_ip as ip, sum(total)::float8 as messages
    from ${dmarcSourceDays}
    where user_id = ${userId} and domain = ${domain} and day >= current_date - ${sinceDays}::int
    group by source_ip
    order by sum(total) desc, source_ip
    limit ${limit}`)) as unknown as { rows: SenderIp[] };
  return result.rows;
}

/**
 * The connecting IPs of a user's inbox-test messages sent as `domain` (envelope sender or From
 * address at that domain) since `sinceDays` ago, those with the most messages first.
 */
export async function inboxTestSenderIps(
  ex: Executor,
  userId: number,
  domain: string,
  sinceDays: number,
  limit: number,
): Promise<SenderIp[]> {
  const result = (await ex.execute(sql`
    select r.report->'envelope'->>'remoteIp' as ip, count(*)::float8 as messages
    from ${inboxTestReports} r join ${inboxTests} t on t.id = r.test_id
    where t.user_id = ${userId} and r.created_at >= now() - make_interval(days => ${sinceDays}::int)
      and r.report->'envelope'->>'remoteIp' is not null
      and (lower(split_part(r.report->'envelope'->>'mailFrom', '@', 2)) = ${domain}
        or exists (select 1 from jsonb_array_elements_text(r.report->'authentication'->'headerFrom') f where lower(split_part(f, '@', 2)) = ${domain}))
    group by 1
    order by 2 desc, 1
    limit ${limit}`)) as unknown as { rows: SenderIp[] };
  return result.rows;
}
