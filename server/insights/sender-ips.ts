import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../platform/db/client';
import { isSameOrSubdomain } from '../platform/db/domain-match';
import {
  dmarcRecords,
  dmarcReports,
  dmarcSourceDays,
  domains,
  inboxTestReports,
  inboxTests,
} from '../platform/db/schema/index';

// The sending IPs the product has seen for a user's domains, from the tables of the DMARC and inbox-test
// capabilities: read by the domain checks (an SPF record built from the sender is evaluated for each, ADR 037) and by
// the reputation screen's IP suggestions.

/** A sending IP and how many messages it sent. */
export type SenderIp = {
  ip: string;
  messages: number;
};

/** Where the product saw IPs sending as a user's domain since `sinceDays` ago: at most `limit`, the busiest first. */
type SenderIpSource = (
  ex: Executor,
  userId: number,
  domain: string,
  sinceDays: number,
  limit: number,
) => Promise<SenderIp[]>;

/**
 * The source IPs of a domain's DMARC aggregate reports: the servers receivers saw sending as the
 * domain (spoofers included).
 */
export const dmarcSenderIps: SenderIpSource = async (ex, userId, domain, sinceDays, limit) => {
  const result = await ex.execute<SenderIp>(sql`
    select source_ip as ip, sum(total)::float8 as messages
    from ${dmarcSourceDays}
    where user_id = ${userId} and domain = ${domain} and day >= current_date - ${sinceDays}::int
    group by source_ip
    order by sum(total) desc, source_ip
    limit ${limit}`);
  return result.rows;
};

/**
 * The domain's own servers among its DMARC report sources: those that passed DMARC for most of their messages
 * (spoofers and unaligned forwarders do not), busiest first; `messages` counts the passing ones.
 */
export const dmarcPassingSenderIps: SenderIpSource = async (ex, userId, domain, sinceDays, limit) => {
  const result = await ex.execute<SenderIp>(sql`
    select source_ip as ip, sum(total - failed)::float8 as messages
    from ${dmarcSourceDays}
    where user_id = ${userId} and domain = ${domain} and day >= current_date - ${sinceDays}::int
    group by source_ip
    having sum(total - failed) * 2 > sum(total)
    order by sum(total - failed) desc, source_ip
    limit ${limit}`);
  return result.rows;
};

/** The connecting IPs of a user's inbox-test messages sent as `domain` (envelope sender or From address at that domain). */
export const inboxTestSenderIps: SenderIpSource = async (ex, userId, domain, sinceDays, limit) => {
  const result = await ex.execute<SenderIp>(sql`
    select r.report->'envelope'->>'remoteIp' as ip, count(*)::float8 as messages
    from ${inboxTestReports} r join ${inboxTests} t on t.id = r.test_id
    where t.user_id = ${userId} and r.created_at >= now() - make_interval(days => ${sinceDays}::int)
      and r.report->'envelope'->>'remoteIp' is not null
      and (lower(split_part(r.report->'envelope'->>'mailFrom', '@', 2)) = ${domain}
        or exists (select 1 from jsonb_array_elements_text(r.report->'authentication'->'headerFrom') f where lower(split_part(f, '@', 2)) = ${domain}))
    group by 1
    order by 2 desc, 1
    limit ${limit}`);
  return result.rows;
};

/** A source IP of the user's DMARC reports (as the report wrote it) over a period. */
export type DmarcSender = {
  sourceIp: string;
  domains: string[];
  messages: number;
  passed: number;
  lastSeen: string;
};

/**
 * Source IPs of the user's DMARC reports since `sinceDays` days ago that sent as one of the user's
 * domains (or a subdomain) and passed DMARC for most of their messages; the latest and busiest first.
 * Read from the DMARC analytics' per-day sums (dmarc_source_days), which are kept per source IP.
 */
export async function dmarcSendersOf(
  ex: Executor,
  userId: number,
  sinceDays: number,
  limit: number,
): Promise<DmarcSender[]> {
  const result = await ex.execute<DmarcSender>(sql`
    select s.source_ip as "sourceIp", array_agg(distinct s.domain order by s.domain) as domains, sum(s.total)::float8 as messages,
      sum(s.total - s.failed)::float8 as passed, max(s.day)::text as "lastSeen"
    from ${dmarcSourceDays} s
    where s.user_id = ${userId} and s.day >= current_date - ${sinceDays}::int
      and exists (select 1 from ${domains} d where d.user_id = ${userId} and ${isSameOrSubdomain(sql`s.domain`, sql`d.domain`)})
    group by s.source_ip
    having sum(s.total - s.failed) * 2 > sum(s.total)
    order by max(s.day) desc, sum(s.total) desc, s.source_ip
    limit ${limit}`);
  return result.rows;
}

/**
 * Override reasons by which a receiver says the mail came through someone else's server: RFC 7489
 * appendix C's forwarded, trusted_forwarder and mailing_list (RFC 9990 keeps the last two), and
 * local_policy when its comment says the mail was forwarded.
 */
const INTERMEDIARY_REASONS = ['forwarded', 'trusted_forwarder', 'mailing_list'];

/** Source IPs (as reports wrote them) that a receiver marked as a forwarder or a mailing list in the user's reports since `sinceDays` days ago. */
export async function intermediarySourcesOf(ex: Executor, userId: number, sinceDays: number): Promise<string[]> {
  const rows = await ex
    .selectDistinct({ sourceIp: dmarcRecords.sourceIp })
    .from(dmarcRecords)
    .innerJoin(dmarcReports, eq(dmarcReports.id, dmarcRecords.reportId))
    .where(
      and(
        eq(dmarcReports.userId, userId),
        sql`${dmarcReports.dateBegin} >= current_date - ${sinceDays}::int`,
        sql`exists (select 1 from jsonb_array_elements(coalesce(${dmarcRecords.reason}, '[]'::jsonb)) as r(reason)
          where r.reason->>'type' in (${sql.join(
            INTERMEDIARY_REASONS.map((type) => sql`${type}`),
            sql`, `,
          )})
            or (r.reason->>'type' = 'local_policy' and r.reason->>'comment' ilike '%forward%'))`,
      ),
    );
  return rows.map((r) => r.sourceIp);
}
