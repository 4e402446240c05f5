import { isIP } from 'node:net';
import { inArray, not, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client';
import { sendingServiceNetworks } from '../platform/db/schema/index';

/** When each service's networks were last refreshed (services never refreshed are absent). */
export async function networkRefreshTimes(ex: Executor): Promise<Map<string, Date>> {
  const rows = await ex
    .select({ service: sendingServiceNetworks.service, at: sql<Date>`max(${sendingServiceNetworks.refreshedAt})` })
    .from(sendingServiceNetworks)
    .groupBy(sendingServiceNetworks.service);
  return new Map(rows.map((row) => [row.service, new Date(row.at)]));
}

/** A service's networks replaced at once by a good refresh: a reader sees the old list or the new one, never none. */
export async function replaceServiceNetworks(db: Db, service: string, networks: string[], at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(sendingServiceNetworks).where(sql`${sendingServiceNetworks.service} = ${service}`);
    // network() clears host bits an SPF term may carry (ip4:192.0.2.10/24 is 192.0.2.0/24).
    await tx.execute(sql`
      insert into sending_service_networks (service, network, refreshed_at)
      select ${service}, network(n::inet), ${at.toISOString()}::timestamptz from unnest(${sql.param(networks)}::text[]) n
      on conflict do nothing`);
  });
}

/** Drops the networks of services the table no longer lists (renamed or removed). */
export async function forgetOtherServices(ex: Executor, services: string[]): Promise<void> {
  await ex.delete(sendingServiceNetworks).where(not(inArray(sendingServiceNetworks.service, services)));
}

/** The service whose published network holds each IP (the narrowest network when several do); unlisted IPs are absent. */
export async function servicesByNetwork(ex: Executor, ips: string[]): Promise<Map<string, string>> {
  const valid = [...new Set(ips.filter((ip) => isIP(ip) !== 0))];
  if (valid.length === 0) return new Map();
  const result = await ex.execute<{ ip: string; service: string }>(sql`
    select distinct on (ip) ip, n.service
    from unnest(${sql.param(valid)}::text[]) ip
    join sending_service_networks n on n.network >>= ip::inet
    order by ip, masklen(n.network) desc`);
  return new Map(result.rows.map((row) => [row.ip, row.service]));
}
