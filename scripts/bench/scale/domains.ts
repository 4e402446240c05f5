import { setUserPlan } from '../../../server/billing/billing.repo';
import { insertDomain } from '../../../server/domains/domains.repo';
import type { Db } from '../../../server/platform/db/client';
import { insertIps, type IpAddressRow } from '../../../server/reputation/ip-addresses.repo';
import { domainName, espIpsOf, tierOf, type BenchDomain } from './world';

/**
 * The account's N domains and its monitored sending IPs, on the Professional plan (no domain limit, a year of
 * history), as billing sets it.
 */
export async function fillAccount(
  db: Db,
  userId: number,
  count: number,
): Promise<{ domains: BenchDomain[]; ips: IpAddressRow[] }> {
  await db.transaction((tx) => setUserPlan(tx, userId, 'professional'));
  const domains: BenchDomain[] = [];
  for (let index = 0; index < count; index++) {
    const name = domainName(index);
    const row = await insertDomain(db, userId, name);
    if (!row) throw new Error(`domain ${name} was not added`);
    domains.push({ index, id: row.id, name, tier: tierOf(index), espIps: espIpsOf(index) });
  }
  const pools = [...new Set(domains.flatMap((d) => d.espIps))];
  const ips: IpAddressRow[] = [];
  for (let i = 0; i < pools.length; i += 500)
    ips.push(
      ...(await insertIps(
        db,
        userId,
        pools.slice(i, i + 500).map((ip) => ({
          ipAddress: ip,
          label: `ESP pool ${ip.split('.').slice(1, 3).join('.')}`,
          type: 'dedicated',
          associatedDomains: domains.filter((d) => d.espIps.includes(ip)).map((d) => d.name),
        })),
      )),
    );
  return { domains, ips };
}
