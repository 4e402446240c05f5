import type { AlertSeverity } from '@contracts/alerts';
import { keepConditionAlert, resolveConditionAlert } from '../alerts/alerts.service';
import type { Executor } from '../platform/db/client';
import type { DnsblCatalogueEntry } from '../engine/blocklists/dnsbl';

/** One list's listing of a target as the alert tells it. */
export interface AlertListing {
  list: DnsblCatalogueEntry;
  /** What the listing means, from the list's code table (or the last known reason of a delisted one). */
  reason: string | null;
  /** A policy-only listing (Spamhaus PBL): not a sign of spam. */
  policyOnly: boolean;
}

/** How a target's listings (ignored lists aside) changed in one run. */
export interface ListingChange {
  userId: number;
  kind: 'ip' | 'domain';
  /** The IP address or the domain name. */
  target: string;
  checkedAt: Date;
  added: AlertListing[];
  removed: AlertListing[];
  /** Listed before and still listed. */
  still: AlertListing[];
  /** Lists asked for the target. */
  totalProviders: number;
}

/** What the target is listed on now: the new listings and those that stay. */
const listedNow = (change: ListingChange) => [...change.added, ...change.still];

/** Critical while it is on a tier-1 list or on 3 lists or more (policy-only listings aside); warning for other listings. */
export function alertSeverity(change: ListingChange): AlertSeverity {
  const real = listedNow(change).filter((l) => !l.policyOnly);
  if (real.some((l) => l.list.tier === 1) || real.length >= 3) return 'critical';
  return 'warning';
}

/** "A", "A and B", "A, B and C". */
export function namesInWords(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The alert for a change: title, message and the metadata the alert detail view reads (part 2, section 2). */
export function describeChange(change: ListingChange) {
  const { target, added, removed, still } = change;
  const names = (listings: AlertListing[]) => namesInWords(listings.map((l) => l.list.name));
  const listed = listedNow(change);
  const title =
    added.length > 0
      ? `${target} is now listed on ${names(added)}`
      : listed.length > 0
        ? `${target} is still listed on ${names(still)}`
        : `${target} was removed from ${names(removed)}`;
  const sentences = [
    ...added.map(
      (l) => `${l.list.name} lists ${target}${l.reason ? `: ${l.reason}` : ''}. Removal: ${l.list.removalUrl}`,
    ),
    ...(listed.length > 0 && removed.length > 0 ? [`It was removed from ${names(removed)}.`] : []),
    listed.length > 0
      ? `It is on ${listed.length} of the ${change.totalProviders} lists checked.`
      : `It is on none of the ${change.totalProviders} lists checked.`,
  ];
  const checkedAt = change.checkedAt.toISOString();
  const provider = (l: AlertListing, listed: boolean) => ({
    provider: l.list.name,
    hostname: l.list.zone,
    description: l.reason,
    listed,
    checkedAt,
  });
  return {
    title,
    message: sentences.join(' '),
    metadata: {
      [change.kind === 'ip' ? 'ipAddress' : 'domain']: target,
      checkedAt,
      providers: [
        ...added.map((l) => provider(l, true)),
        ...still.map((l) => provider(l, true)),
        ...removed.map((l) => provider(l, false)),
      ],
      totalProviders: change.totalProviders,
      listedCount: listed.length,
    },
  };
}

/** One open blacklist_detection alert per IP or domain while it is listed anywhere. */
export const listingConditionKey = (change: Pick<ListingChange, 'kind' | 'target'>) =>
  `blocklist:${change.kind}:${change.target.toLowerCase()}`;

/**
 * Keeps the target's listing alert, in the caller's transaction: raised at its first listing,
 * updated (and told again when it escalates) while its lists change, and resolved once it is on
 * none of them, which sends alert.resolved like every other resolution. Nothing when nothing changed.
 */
export async function keepListingAlert(
  ex: Executor,
  change: ListingChange,
): Promise<'raised' | 'changed' | 'resolved' | 'unchanged'> {
  if (change.added.length === 0 && change.removed.length === 0) return 'unchanged';
  const { title, message, metadata } = describeChange(change);
  const conditionKey = listingConditionKey(change);
  if (listedNow(change).length === 0) {
    return (await resolveConditionAlert(ex, change.userId, conditionKey, `${title}. ${message}`))
      ? 'resolved'
      : 'unchanged';
  }
  const outcome = await keepConditionAlert(ex, {
    userId: change.userId,
    conditionKey,
    type: 'blacklist_detection',
    severity: alertSeverity(change),
    title,
    message,
    domain: change.kind === 'domain' ? change.target : null,
    metadata: { ...metadata, value: namesInWords(listedNow(change).map((l) => l.list.name)) },
    measure: `Lists ${change.target} is on`,
  });
  return outcome === 'raised' ? 'raised' : 'changed';
}
