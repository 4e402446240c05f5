import type { ScoreFactor } from '@contracts/reputation';
import { queueAlertEvaluation } from '../alerts/alerts.service';
import { queueWebhookDeliveries, recordWebhookEvent } from '../webhooks/webhooks.service';
import type { AppContext } from '../platform/context';
import type { Executor } from '../platform/db/client';
import {
  findBlocklist,
  lookUpBlocklists,
  type BlocklistAnswer,
  type DnsblCatalogueEntry,
} from '../engine/blocklists/dnsbl';
import { normaliseIp } from '../platform/dns/ip-address';
import { safeMessage } from '../platform/logger';
import { lookUpReverseDns, type ReverseDns } from '../engine/message-analysis/checks/connecting-ip';
import { keepListingAlert, type AlertListing, type ListingChange } from './blocklist-alerts';
import {
  claimRun,
  closeListings,
  failRun,
  finishRun,
  listIgnoredListIds,
  listIpTargets,
  listOpenListings,
  listResults,
  lockIpRows,
  lockUserRun,
  openListings,
  updateIpCheck,
  upsertResults,
  type IpTarget,
  type ListingRow,
  type NewResult,
  type ResultRow,
} from './blocklist-results.repo';
import {
  listDomainTargets,
  lockDomainRows,
  updateDomainReputation,
  type DomainTarget,
} from '../domains/domain-reputation.service';
import { loadDmarcTotals, loadPlacementTotals } from '../insights/reputation-evidence';
import {
  countedListings,
  ipBadge,
  isPolicyOnlyListing,
  senderScore,
  type RateFacts,
  type ScoredListing,
} from './sender-score';

type RunContext = Pick<AppContext, 'db' | 'dns' | 'log' | 'jobs'>;

/** IPs looked up side by side; each asks every list, and the engine bounds the queries process-wide. */
const IPS_AT_ONCE = 8;

interface Checked<T> {
  target: T;
  answers: BlocklistAnswer[];
}
type IpChecked = Checked<IpTarget> & { reverse: ReverseDns };
type Target = { kind: 'ip'; id: number; name: string } | { kind: 'domain'; id: number; name: string };

/**
 * One user's check: every lookup first, then one transaction writes everything (answers, listing
 * history, IP and domain scores, alerts, the run's end), so a run that dies half way leaves the
 * state of the run before. Skipped when another run of the user is going.
 */
export async function runReputationCheck(ctx: RunContext, userId: number): Promise<void> {
  const startedAt = await claimRun(ctx.db, userId);
  if (!startedAt) {
    ctx.log.info({ userId }, 'reputation check skipped: another one is going');
    return;
  }
  try {
    const [ips, domains] = await Promise.all([listIpTargets(ctx.db, userId), listDomainTargets(ctx.db, userId)]);
    const ipChecks = await mapLimit(ips, IPS_AT_ONCE, async (target) => {
      const [answers, reverse] = await Promise.all([
        lookUpBlocklists(ctx.dns, { ip: target.ipAddress }),
        lookUpReverseDns(ctx.dns, target.ipAddress),
      ]);
      return { target, answers, reverse };
    });
    const domainChecks = await mapLimit(domains, IPS_AT_ONCE, async (target) => ({
      target,
      answers: await lookUpBlocklists(ctx.dns, { domain: target.domain }),
    }));
    const { alerts, deliveries } = await ctx.db.transaction(async (tx) => {
      await lockUserRun(tx, userId);
      const written = await writeChecks(tx, userId, ipChecks, domainChecks);
      await finishRun(tx, userId);
      return written;
    });
    await queueWebhookDeliveries(ctx.jobs, deliveries);
    ctx.log.info({ userId, ips: ipChecks.length, domains: domainChecks.length, alerts }, 'reputation check done');
  } catch (err) {
    await failRun(ctx.db, userId, safeMessage(err instanceof Error ? err : new Error(String(err))));
    throw err;
  }
  // Committed: scores changed, and the sender score conditions are computed from them.
  await queueAlertEvaluation(ctx.jobs, userId);
}

/** Writes one run's answers; returns how many alerts it raised and the webhook deliveries to queue once committed. */
async function writeChecks(
  tx: Executor,
  userId: number,
  ipChecks: IpChecked[],
  domainChecks: Checked<DomainTarget>[],
): Promise<{ alerts: number; deliveries: number[] }> {
  // Locked, so the rows cannot go while this writes; one deleted during the lookups is skipped.
  const ipRows = new Map((await lockIpRows(tx, userId)).map((r) => [r.id, r.ipAddress]));
  const domainRows = new Map((await lockDomainRows(tx, userId)).map((r) => [r.id, r.domain]));
  const liveIps = ipChecks.filter((c) => ipRows.get(c.target.id) === c.target.ipAddress);
  const liveDomains = domainChecks.filter((c) => domainRows.get(c.target.id) === c.target.domain);
  const ignored = await listIgnoredListIds(tx, userId);
  const before = await listResults(tx, userId);
  const open = await listOpenListings(tx, userId);

  const targets: { target: Target; answers: BlocklistAnswer[] }[] = [
    ...liveIps.map((c) => ({
      target: { kind: 'ip' as const, id: c.target.id, name: c.target.ipAddress },
      answers: c.answers,
    })),
    ...liveDomains.map((c) => ({
      target: { kind: 'domain' as const, id: c.target.id, name: c.target.domain },
      answers: c.answers,
    })),
  ];
  const openByTarget = byTarget(open);
  const beforeByTarget = byTarget(before);
  const results: NewResult[] = [];
  const opened: {
    userId: number;
    ipAddressId: number | null;
    domainId: number | null;
    listId: string;
    listedAt: Date;
    reason: string | null;
  }[] = [];
  const closed: number[] = [];
  const changes: ListingChange[] = [];
  for (const { target, answers } of targets) {
    const key =
      target.kind === 'ip' ? { ipAddressId: target.id, domainId: null } : { ipAddressId: null, domainId: target.id };
    const openByList = openByTarget.get(targetKey(key)) ?? new Map<string, ListingRow>();
    const previous = beforeByTarget.get(targetKey(key)) ?? new Map<string, ResultRow>();
    const change: ListingChange = {
      userId,
      kind: target.kind,
      target: target.name,
      checkedAt: new Date(0),
      added: [],
      removed: [],
      still: [],
      totalProviders: answers.length,
    };
    for (const answer of answers) {
      results.push({
        userId,
        ...key,
        listId: answer.listId,
        status: answer.status,
        answers: answer.answers,
        reason: answer.reason,
        txt: answer.txt,
        checkedAt: answer.checkedAt,
      });
      if (answer.checkedAt > change.checkedAt) change.checkedAt = answer.checkedAt;
      const list = findBlocklist(answer.listId);
      const listing = openByList.get(answer.listId);
      // A list gone from the catalogue, or one the user ignores, is stored but counts for nothing.
      const counts = list !== undefined && !ignored.has(answer.listId);
      // An unknown answer neither opens nor closes a listing: a list that did not answer has not delisted anything.
      if (answer.status === 'listed' && !listing) {
        opened.push({ userId, ...key, listId: answer.listId, listedAt: answer.checkedAt, reason: answer.reason });
        if (counts) change.added.push(alertListing(list, answer.reason, answer.answers));
      } else if (answer.status === 'clear' && listing) {
        closed.push(listing.id);
        if (counts) change.removed.push(alertListing(list, listing.reason, []));
      } else if (listing && counts) {
        const seen = answer.status === 'listed' ? answer : previous.get(answer.listId);
        change.still.push(alertListing(list, seen?.reason ?? listing.reason, seen?.answers ?? []));
      }
    }
    changes.push(change);
  }
  await upsertResults(tx, results);
  await openListings(tx, opened);
  await closeListings(tx, userId, closed, new Date());
  for (const check of liveIps) {
    const { reverseDns, confirmedName, reverseDnsFailed } = check.reverse;
    await updateIpCheck(tx, userId, check.target.id, {
      // Failed lookup: both null (not known); no PTR: no name, not confirmed.
      reverseDns: confirmedName ?? reverseDns[0] ?? null,
      reverseDnsConfirmed: reverseDnsFailed ? null : confirmedName !== null,
      lastChecked: latest(check.answers) ?? new Date(),
    });
  }
  const deliveries = await deriveReputation(tx, userId);
  let raised = 0;
  for (const change of changes) if ((await keepListingAlert(tx, change)) === 'raised') raised++;
  return { alerts: raised, deliveries };
}

function alertListing(list: DnsblCatalogueEntry, reason: string | null, answers: readonly string[]): AlertListing {
  return { list, reason, policyOnly: isPolicyOnlyListing(list.zone, answers) };
}

const latest = (answers: BlocklistAnswer[]) =>
  answers.reduce<Date | null>((max, a) => (max && max > a.checkedAt ? max : a.checkedAt), null);

/**
 * Status, blacklistCount, totalProviders and sender score of every checked IP, and the reputation
 * score of every checked domain, from the stored answers, reverse DNS, the user's ignores, DMARC
 * reports, inbox tests and the domains' authentication checks: after a run, and when the user switches a list on or off
 * (no lookup). A domain whose score moved gets a domain.reputation_changed webhook event: the deliveries are
 * returned, to be queued once the transaction commits.
 */
export async function deriveReputation(tx: Executor, userId: number): Promise<number[]> {
  // One after another: a transaction is one connection, which runs one query at a time.
  const ipRows = await lockIpRows(tx, userId);
  const domainRows = await lockDomainRows(tx, userId);
  const deliveries: number[] = [];
  const results = await listResults(tx, userId);
  const ignored = await listIgnoredListIds(tx, userId);
  const open = await listOpenListings(tx, userId);
  const dmarc = await loadDmarcTotals(tx, userId);
  const placement = await loadPlacementTotals(tx, userId);
  const stillListed = new Set(open.map((l) => listingKey(l)));
  const resultsByTarget = byTarget(results);
  const dmarcByIp = totalsBy(dmarc.byIp, normaliseIp);
  const dmarcByDomain = totalsBy(dmarc.byDomain, (d) => d.toLowerCase());
  const placementByIp = totalsBy(placement.byIp, normaliseIp);
  const placementByDomain = totalsBy(placement.byDomain, (d) => d.toLowerCase());

  for (const ip of ipRows) {
    const mine = [...(resultsByTarget.get(targetKey({ ipAddressId: ip.id, domainId: null }))?.values() ?? [])];
    if (mine.length === 0) continue; // never checked: stays pending
    const { listings, asked, counted, unknown } = assess(mine, ignored, stillListed);
    const { score, factors } = senderScore({
      target: ip.ipAddress,
      listings,
      listsAsked: counted,
      reverseDns: {
        name: ip.reverseDns,
        confirmed: ip.reverseDnsConfirmed === true,
        failed: ip.reverseDnsConfirmed === null,
      },
      dmarc: dmarcByIp.get(ip.ipAddress) ?? null,
      placement: placementByIp.get(ip.ipAddress) ?? null,
    });
    await updateIpCheck(tx, userId, ip.id, {
      status: ipBadge({ listsAsked: counted, unknown, listings, score }),
      blacklistCount: countedListings(listings),
      totalProviders: asked,
      senderScore: score,
      scoreFactors: factors,
    });
  }
  for (const domain of domainRows) {
    const mine = [...(resultsByTarget.get(targetKey({ ipAddressId: null, domainId: domain.id }))?.values() ?? [])];
    if (mine.length === 0) continue;
    const { listings, counted } = assess(mine, ignored, stillListed);
    const name = domain.domain.toLowerCase();
    const { score, factors } = senderScore({
      target: domain.domain,
      listings,
      listsAsked: counted,
      dmarc: dmarcByDomain.get(name) ?? null,
      placement: placementByDomain.get(name) ?? null,
      authentication: {
        spf: domain.spfStatus,
        dkim: domain.dkimStatus,
        dmarc: domain.dmarcStatus,
        checks: domain.checks,
      },
    });
    await updateDomainReputation(tx, userId, domain.id, score, factors satisfies ScoreFactor[]);
    // A first score is not a change; a score that moved is, whatever moved it.
    if (domain.reputationScore !== null && Math.round(domain.reputationScore) !== Math.round(score)) {
      const data = {
        domain: domain.domain,
        previous_score: Math.round(domain.reputationScore),
        current_score: Math.round(score),
        change_reason: changeReason(domain.reputationFactors, factors),
        updated_at: new Date().toISOString(),
      };
      deliveries.push(...(await recordWebhookEvent(tx, userId, 'domain.reputation_changed', data)));
    }
  }
  return deliveries;
}

/** The term of the score that moved the most, in its own words: "Listed on Spamhaus DBL (tier 1): ...". */
export function changeReason(before: ScoreFactor[], after: ScoreFactor[]): string {
  const labels = new Set([...before.map((f) => f.label), ...after.map((f) => f.label)]);
  let reason = { moved: 0, text: 'The score was computed again from the same evidence' };
  for (const label of labels) {
    const old = before.find((f) => f.label === label);
    const now = after.find((f) => f.label === label);
    const moved = Math.abs((now?.points ?? 0) - (old?.points ?? 0));
    if (moved <= reason.moved) continue;
    const text =
      now && now.points > 0
        ? `${label}: ${now.detail}`
        : `${label}: no longer takes points off (took ${old?.points ?? 0})`;
    reason = { moved, text };
  }
  return reason.text;
}

/**
 * The listings that count (lists of the catalogue the user has not switched off); the catalogue's
 * lists asked (ignored ones too: they were asked), those that count, and those that answered unknown.
 */
function assess(results: ResultRow[], ignored: Set<string>, stillListed: Set<string>) {
  const listings: ScoredListing[] = [];
  let asked = 0;
  let counted = 0;
  let unknown = 0;
  for (const result of results) {
    const list = findBlocklist(result.listId);
    if (list) asked++;
    if (!list || ignored.has(result.listId)) continue;
    counted++;
    if (result.status === 'listed')
      listings.push({ name: list.name, tier: list.tier, policyOnly: isPolicyOnlyListing(list.zone, result.answers) });
    else if (result.status === 'unknown') {
      unknown++;
      // A list that did not answer has not delisted anything: its open listing still counts.
      if (stillListed.has(listingKey(result))) listings.push({ name: list.name, tier: list.tier, policyOnly: false });
    }
  }
  return { listings, asked, counted, unknown };
}

type TargetColumns = { ipAddressId: number | null; domainId: number | null };
const targetKey = (row: TargetColumns) => `${row.ipAddressId ?? ''}/${row.domainId ?? ''}`;

/** Rows per IP or domain, then per list: one pass, as a user may monitor a thousand IPs times forty lists. */
function byTarget<T extends TargetColumns & { listId: string }>(rows: T[]): Map<string, Map<string, T>> {
  const out = new Map<string, Map<string, T>>();
  for (const row of rows) {
    const key = targetKey(row);
    const lists = out.get(key) ?? new Map<string, T>();
    lists.set(row.listId, row);
    out.set(key, lists);
  }
  return out;
}

const listingKey = (row: { ipAddressId: number | null; domainId: number | null; listId: string }) =>
  `${row.ipAddressId ?? ''}/${row.domainId ?? ''}/${row.listId}`;

/** Sums rows keyed as reported (an IPv6 source may be written several ways) under one key. */
function totalsBy(
  rows: { key: string; total: number; passed: number }[],
  normalise: (key: string) => string | null,
): Map<string, RateFacts> {
  const out = new Map<string, RateFacts>();
  for (const row of rows) {
    const key = normalise(row.key);
    if (!key) continue;
    const sum = out.get(key) ?? { total: 0, good: 0 };
    out.set(key, { total: sum.total + Number(row.total), good: sum.good + Number(row.passed) });
  }
  return out;
}

async function mapLimit<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await run(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
