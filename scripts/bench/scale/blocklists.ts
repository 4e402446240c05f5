import { blocklistsFor } from '../../../server/engine/blocklists/dnsbl-catalogue';
import type { Db } from '../../../server/platform/db/client';
import { openListings, upsertResults, type NewResult } from '../../../server/reputation/blocklist-results.repo';
import type { IpAddressRow } from '../../../server/reputation/ip-addresses.repo';
import { deriveReputation } from '../../../server/reputation/reputation-run.service';
import { blocklistListings } from '../../../server/platform/db/schema/index';
import { seeded } from './random';
import type { BenchDomain } from './world';

type NewListing = typeof blocklistListings.$inferInsert;

/*
 * The latest blocklist run (every list's answer for every monitored IP and domain, as a run stores them), the
 * year's listings (a few still open, more that ended), and the reputation the run derives from them with the
 * DMARC and placement figures (deriveReputation), as the two-hourly run leaves them.
 */

const DAY = 86_400_000;

/** A listing of the year: some still open, most delisted after a few days. */
function listing(random: ReturnType<typeof seeded>, listId: string, now: number) {
  const listedAt = new Date(now - random.int(1, 365) * DAY);
  const open = random.chance(0.3);
  return {
    listId,
    listedAt,
    delistedAt: open ? null : new Date(Math.min(now - 3_600_000, listedAt.getTime() + random.int(1, 10) * DAY)),
    reason: 'Listed: sending to spam traps',
  };
}

export async function fillBlocklists(
  db: Db,
  userId: number,
  domains: readonly BenchDomain[],
  ips: IpAddressRow[],
  seed: number,
) {
  const random = seeded(seed * 32_452_843);
  const now = Date.now();
  const results: NewResult[] = [];
  const listings: NewListing[] = [];
  const answer = (target: { ipAddressId: number } | { domainId: number }, listId: string, listed: boolean) =>
    results.push({
      userId,
      ...target,
      listId,
      status: listed ? 'listed' : 'clear',
      answers: listed ? ['127.0.0.2'] : [],
      reason: listed ? 'Listed: sending to spam traps' : null,
      txt: null,
      checkedAt: new Date(now - random.int(1, 120) * 60_000),
    });
  const ipLists = blocklistsFor('ipv4');
  for (const ip of ips) {
    for (const list of ipLists) {
      const history = random.chance(0.01) ? listing(random, list.id, now) : undefined;
      if (history) listings.push({ userId, ipAddressId: ip.id, ...history });
      answer({ ipAddressId: ip.id }, list.id, history !== undefined && history.delistedAt === null);
    }
  }
  const domainLists = blocklistsFor('domain');
  for (const domain of domains) {
    for (const list of domainLists) {
      const history = random.chance(0.002) ? listing(random, list.id, now) : undefined;
      if (history) listings.push({ userId, domainId: domain.id, ...history });
      answer({ domainId: domain.id }, list.id, history !== undefined && history.delistedAt === null);
    }
  }
  const started = performance.now();
  await db.transaction(async (tx) => {
    await upsertResults(tx, results);
    await openListings(tx, listings);
    await deriveReputation(tx, userId);
  });
  console.log(
    `blocklists: ${results.length.toLocaleString('en')} results, ${listings.length} listings, reputation derived, ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
