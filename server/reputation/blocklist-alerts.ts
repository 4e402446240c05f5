import type { AlertSeverity } from '@contracts/alerts';
import { raiseAlert } from '../alerts/alerts.service';
import type { Executor } from '../platform/db/client';
import type { DnsblCatalogueEntry } from '../platform/dns/dnsbl';

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

/** Critical when it is newly on a tier-1 list or now on 3 lists or more; warning for other new listings; info for delistings alone. */
export function alertSeverity(change: ListingChange): AlertSeverity {
  const real = (l: AlertListing) => !l.policyOnly;
  if (change.added.length === 0) return 'info';
  const listedNow = [...change.added, ...change.still].filter(real).length;
  if (change.added.some((l) => real(l) && l.list.tier === 1) || listedNow >= 3) return 'critical';
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
  const title = added.length > 0 ? `${target} is now listed on ${names(added)}` : `${target} was removed from ${names(removed)}`;
  const sentences = [
    ...added.map((l) => `${l.list.name} lists ${target}${l.reason ? `: ${l.reason}` : ''}. Removal: ${l.list.removalUrl}`),
    ...(added.length > 0 && removed.length > 0 ? [`It was removed from ${names(removed)}.`] : []),
    [...added, ...still].length > 0
      ? `It is on ${[...added, ...still].length} of the ${change.totalProviders} lists checked.`
      : `It is on none of the ${change.totalProviders} lists checked.`,
  ];
  const checkedAt = change.checkedAt.toISOString();
  const provider = (l: AlertListing, listed: boolean) => ({ provider: l.list.name, hostname: l.list.zone, description: l.reason, listed, checkedAt });
  return {
    title,
    message: sentences.join(' '),
    metadata: {
      [change.kind === 'ip' ? 'ipAddress' : 'domain']: target,
      checkedAt,
      providers: [...added.map((l) => provider(l, true)), ...still.map((l) => provider(l, true)), ...removed.map((l) => provider(l, false))],
      totalProviders: change.totalProviders,
      listedCount: added.length + still.length,
    },
  };
}

/** Raises one blacklist_detection alert for a target whose listings changed, in the caller's transaction; nothing when nothing changed. */
export async function raiseListingAlert(ex: Executor, change: ListingChange): Promise<boolean> {
  if (change.added.length === 0 && change.removed.length === 0) return false;
  const { title, message, metadata } = describeChange(change);
  await raiseAlert(ex, {
    userId: change.userId,
    type: 'blacklist_detection',
    severity: alertSeverity(change),
    title,
    message,
    domain: change.kind === 'domain' ? change.target : null,
    metadata,
  });
  return true;
}
