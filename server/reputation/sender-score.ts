import type { BlocklistTier, IpStatus, ScoreFactor } from '@contracts/reputation';
import { authenticationFactors, type AuthenticationFacts } from './authentication-score';

/**
 * The sender score of an IP address or a domain, 0-100 (ADR 023).
 *
 * Start at 100 and take off, per term:
 * - Each list (not ignored) that lists it, by the list's tier: tier 1 (the large mailbox providers
 *   block on it) 35, tier 2 (widely used) 15, tier 3 (minor or aggressive) 5. A policy-only listing
 *   (Spamhaus PBL, codes 127.0.0.10 and 127.0.0.11 on ZEN or PBL: "end-user address, should not send
 *   mail directly") says nothing about the sender's behaviour and counts as tier 3 whatever the list.
 * - Reverse DNS (IPs only): no PTR name 10; a PTR name that does not resolve back to the address
 *   (not forward-confirmed) 5. A PTR lookup that failed takes nothing off: it is not known.
 * - DMARC pass rate over the last 30 days, where the user's DMARC reports show it: below 95%,
 *   (95 - rate) / 2, at most 25. No reports, no term.
 * - Inbox placement of the user's completed inbox tests of the last 30 days sent from it: below 90% in
 *   the inbox, (90 - inbox%) / 2, at most 25. No tests, no term.
 * - Authentication (domains only): SPF, DKIM and DMARC as the domain's last check found them, 15
 *   each when missing or unusable (authentication-score.ts, ADR 042).
 * Each term is rounded to a whole number; the total is clamped to 0-100.
 */
export const LISTING_POINTS: Record<BlocklistTier, number> = { 1: 35, 2: 15, 3: 5 };
export const NO_PTR_POINTS = 10;
export const UNCONFIRMED_PTR_POINTS = 5;
export const DMARC_TARGET_RATE = 95;
export const PLACEMENT_TARGET_RATE = 90;
export const MAX_RATE_POINTS = 25;

/** Zones whose codes 127.0.0.10/11 are Spamhaus PBL: a policy listing, not a reputation one. */
const POLICY_CODES: Record<string, readonly string[]> = {
  'zen.spamhaus.org': ['127.0.0.10', '127.0.0.11'],
  'pbl.spamhaus.org': ['127.0.0.10', '127.0.0.11'],
};

/** Whether every code a list answered is a policy code (a listing for what the address is, not what it did). */
export function isPolicyOnlyListing(zone: string, answers: readonly string[]): boolean {
  const policy = POLICY_CODES[zone.toLowerCase()];
  return !!policy && answers.length > 0 && answers.every((answer) => policy.includes(answer));
}

export interface ScoredListing {
  /** The list's name, e.g. "Spamhaus ZEN". */
  name: string;
  tier: BlocklistTier;
  policyOnly: boolean;
}

export interface ReverseDnsFacts {
  /** The first PTR name, null when there is none. */
  name: string | null;
  confirmed: boolean;
  /** The lookup failed: nothing is known. */
  failed: boolean;
}

export interface RateFacts {
  /** Messages (DMARC) or seed mailboxes (placement) counted, and how many passed or reached the inbox. */
  total: number;
  good: number;
}

export interface ScoreInput {
  /** The target, in the factors' words: "203.0.113.7" or "example.com". */
  target: string;
  /** Lists that answered "listed", not ignored. */
  listings: readonly ScoredListing[];
  /** Lists asked, for the "not listed" factor. */
  listsAsked: number;
  /** undefined for a domain (no reverse DNS term). */
  reverseDns?: ReverseDnsFacts;
  /** undefined for an IP (an address has no records of its own). */
  authentication?: AuthenticationFacts;
  dmarc: RateFacts | null;
  placement: RateFacts | null;
}

const percent = (r: RateFacts) => (r.good / r.total) * 100;
const shown = (rate: number) => `${Math.round(rate * 10) / 10}%`;

/** The score and the terms that made it, each in words a user reads on the screen. */
export function senderScore(input: ScoreInput): { score: number; factors: ScoreFactor[] } {
  const factors: ScoreFactor[] = [];
  if (input.listings.length === 0)
    factors.push({
      label: 'Blocklists',
      points: 0,
      detail: `Not listed on any of the ${input.listsAsked} lists checked`,
    });
  for (const listing of input.listings) {
    const tier = listing.policyOnly ? 3 : listing.tier;
    const points = LISTING_POINTS[tier];
    const what = listing.policyOnly ? 'policy listing, counted as tier 3' : `tier ${tier}`;
    factors.push({ label: `Listed on ${listing.name} (${what})`, points, detail: listingDetail(listing) });
  }
  if (input.reverseDns) factors.push(reverseDnsFactor(input.target, input.reverseDns));
  if (input.authentication) factors.push(...authenticationFactors(input.target, input.authentication));
  const dmarc = input.dmarc && input.dmarc.total > 0 ? input.dmarc : null;
  if (dmarc) {
    const rate = percent(dmarc);
    const points = rateDeduction(rate, DMARC_TARGET_RATE);
    factors.push({
      label: `DMARC pass rate ${shown(rate)}`,
      points,
      detail: `${dmarc.good} of ${dmarc.total} messages in your DMARC reports of the last 30 days passed DMARC${points ? ` (below ${DMARC_TARGET_RATE}%)` : ''}.`,
    });
  }
  const placement = input.placement && input.placement.total > 0 ? input.placement : null;
  if (placement) {
    const rate = percent(placement);
    const points = rateDeduction(rate, PLACEMENT_TARGET_RATE);
    factors.push({
      label: `Inbox placement ${shown(rate)}`,
      points,
      detail: `${placement.good} of ${placement.total} seed mailboxes received your inbox tests of the last 30 days in the inbox${points ? ` (below ${PLACEMENT_TARGET_RATE}%)` : ''}.`,
    });
  }
  const total = factors.reduce((sum, f) => sum + f.points, 0);
  return { score: Math.max(0, Math.min(100, 100 - total)), factors };
}

function listingDetail(listing: ScoredListing): string {
  if (listing.policyOnly)
    return `${listing.name} lists the address as one that should not send mail directly (a policy listing, not a spam report).`;
  if (listing.tier === 1) return `Large mailbox providers refuse or filter mail from senders on ${listing.name}.`;
  if (listing.tier === 2) return `${listing.name} is widely used by receiving servers.`;
  return `${listing.name} is a minor or aggressive list; few receivers block on it.`;
}

function reverseDnsFactor(ip: string, ptr: ReverseDnsFacts): ScoreFactor {
  if (ptr.failed)
    return {
      label: 'Reverse DNS not known',
      points: 0,
      detail: `The PTR lookup of ${ip} failed; it is checked again on the next run.`,
    };
  if (!ptr.name)
    return {
      label: 'No reverse DNS',
      points: NO_PTR_POINTS,
      detail: `${ip} has no PTR name. Many receivers refuse mail from addresses without one; ask your hosting provider to set it.`,
    };
  if (!ptr.confirmed)
    return {
      label: 'Reverse DNS not forward-confirmed',
      points: UNCONFIRMED_PTR_POINTS,
      detail: `${ip} points to ${ptr.name}, but ${ptr.name} does not resolve back to ${ip}. Add an A or AAAA record for it.`,
    };
  return {
    label: 'Reverse DNS forward-confirmed',
    points: 0,
    detail: `${ip} points to ${ptr.name}, which resolves back to it.`,
  };
}

/** (target - rate) / 2 below the target, at most 25, a whole number. */
export function rateDeduction(rate: number, target: number): number {
  if (rate >= target) return 0;
  return Math.min(MAX_RATE_POINTS, Math.round((target - rate) / 2));
}

export interface BadgeInput {
  /** Lists asked at the last check, and how many of them answered unknown (timed out, refused). */
  listsAsked: number;
  unknown: number;
  /** Lists (not ignored) that list it. */
  listings: readonly ScoredListing[];
  score: number;
}

/**
 * The IP badge (part 2 section 4; ADR 023), the first rule that holds:
 * - pending: never checked (null).
 * - critical: listed on 3 or more lists (policy-only listings aside).
 * - blocked: listed on at least one tier-1 list, and fewer than 3: large mailbox providers refuse its mail.
 * - warning: listed on 1 or 2 lists, none of them tier 1.
 * - unknown: not listed anywhere that answered, but more than half the lists answered unknown, so
 *   nothing can be concluded. (A listing is a conclusion, so the rules above come first.)
 * - caution: not listed, but only policy listings, or a score below 90 (reverse DNS, DMARC or placement).
 * - clean: not listed and a score of 90 or more.
 */
export function ipBadge(check: BadgeInput | null): IpStatus {
  if (!check) return 'pending';
  const listings = check.listings.filter((l) => !l.policyOnly);
  if (listings.length >= 3) return 'critical';
  if (listings.some((l) => l.tier === 1)) return 'blocked';
  if (listings.length > 0) return 'warning';
  if (check.unknown * 2 > check.listsAsked) return 'unknown';
  if (check.listings.length > 0 || check.score < 90) return 'caution';
  return 'clean';
}

/** What blacklistCount counts: listings, policy-only ones aside (the blacklist page labels by it: 0 Clean, 1-2 Warning, 3+ Critical). */
export function countedListings(listings: readonly ScoredListing[]): number {
  return listings.filter((l) => !l.policyOnly).length;
}
