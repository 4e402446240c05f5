import { z } from 'zod';
import { IdParams, text } from './input';

/*
 * IP addresses, blocklist monitoring and sender reputation (part 2: Reputation Monitoring, Blacklist
 * Monitoring, Reputation Test; sections 3-9). The rules behind status, badges and the sender score
 * are in ADR 023.
 */

export const IP_TYPES = ['dedicated', 'shared'] as const;
export const IpType = z.enum(IP_TYPES, { error: `type must be one of ${IP_TYPES.join(', ')}` });
export type IpType = z.infer<typeof IpType>;

/** The IP badge values (part 2, section 4). `pending` until the first check has run. Each one's rule: ADR 023. */
export const IP_STATUSES = ['clean', 'caution', 'warning', 'blocked', 'critical', 'pending', 'unknown'] as const;
export const IpStatus = z.enum(IP_STATUSES);
export type IpStatus = z.infer<typeof IpStatus>;

/** What one list answered: listed, clear (not listed), or unknown (timed out, refused, or a code outside the list's table). */
export const BlocklistAnswerStatus = z.enum(['listed', 'clear', 'unknown']);
export type BlocklistAnswerStatus = z.infer<typeof BlocklistAnswerStatus>;

export const BlocklistKind = z.enum(['ip', 'domain']);
export type BlocklistKind = z.infer<typeof BlocklistKind>;

/** How much a listing on a list weighs: 1 = lists the large mailbox providers block on, 2 = widely used, 3 = minor or aggressive. */
export const BlocklistTier = z.union([z.literal(1), z.literal(2), z.literal(3)]);
export type BlocklistTier = z.infer<typeof BlocklistTier>;

/** One list's answer for one IP or domain (part 2 section 3 reputationDetails: provider, listed, checkedAt; the rest beyond the spec). */
export const ReputationDetail = z.object({
  listId: z.string(),
  /** The list's name, e.g. "Spamhaus ZEN". */
  provider: z.string(),
  zone: z.string(),
  tier: BlocklistTier,
  status: BlocklistAnswerStatus,
  listed: z.boolean(),
  /** The raw A records the list answered (empty when not listed or no answer). */
  answers: z.array(z.string()),
  /** What the answer means from the list's own code table, or why it is unknown. */
  reason: z.string().nullable(),
  /** The list's TXT record for the listing, when it publishes one. */
  txt: z.string().nullable(),
  removalUrl: z.string(),
  /** The user switched this list off: shown, but it counts for nothing. */
  ignored: z.boolean(),
  checkedAt: z.string(),
});
export type ReputationDetail = z.infer<typeof ReputationDetail>;

/**
 * The count behind "Listed on": "0 of 37 IP lists asked for this address", or "0 of 35 answered (2 refused,
 * 1 did not answer)" when some lists gave no verdict: a list that answered a refusal code (it has a
 * listing code table, so answers without a verdict are refusals) or did not answer at all (timed
 * out, failed) has not said the target is clean. `lists` names what was asked ("domain lists").
 */
export function listedCountWords(
  listed: number,
  asked: number,
  details: Pick<ReputationDetail, 'status' | 'answers'>[],
  lists: string,
): string {
  const unknown = details.filter((d) => d.status === 'unknown');
  if (unknown.length === 0) return `${listed} of ${asked} ${lists}`;
  const refused = unknown.filter((d) => d.answers.length > 0).length;
  const silent = unknown.length - refused;
  const why = [refused > 0 ? `${refused} refused` : null, silent > 0 ? `${silent} did not answer` : null]
    .filter(Boolean)
    .join(', ');
  return `${listed} of ${asked - unknown.length} answered (${why})`;
}

/** One term of the sender score, so the screen can say how the number was made. */
export const ScoreFactor = z.object({
  label: z.string(),
  /** Points taken off 100 (0 when the factor is fine). */
  points: z.number(),
  detail: z.string(),
});
export type ScoreFactor = z.infer<typeof ScoreFactor>;

export const IpAddress = z.object({
  id: z.number().int(),
  ipAddress: z.string(),
  label: z.string().nullable(),
  type: IpType,
  associatedDomains: z.array(z.string()),
  status: IpStatus,
  /** Lists (not ignored) that list the address now. */
  blacklistCount: z.number().int(),
  /** Lists asked for this address at the last check (IPv6 is asked only of lists that serve IPv6). */
  totalProviders: z.number().int(),
  /** 0-100; null until checked. */
  senderScore: z.number().int().nullable(),
  scoreFactors: z.array(ScoreFactor),
  /** The PTR name, and whether it resolves back to the address (forward-confirmed). */
  reverseDns: z.string().nullable(),
  reverseDnsConfirmed: z.boolean().nullable(),
  lastChecked: z.string().nullable(),
  reputationDetails: z.array(ReputationDetail),
  createdAt: z.string(),
});
export type IpAddress = z.infer<typeof IpAddress>;

const MAX_ASSOCIATED_DOMAINS = 50;
const associatedDomains = z
  .array(
    text('associatedDomains', 253, { trim: true })
      .toLowerCase()
      .min(1, 'associatedDomains must not hold an empty name'),
    {
      error: 'associatedDomains must be a list of domain names',
    },
  )
  .max(MAX_ASSOCIATED_DOMAINS, `associatedDomains may hold at most ${MAX_ASSOCIATED_DOMAINS} domains`)
  .default([]);
const label = text('label', 100, { trim: true }).optional();

/** POST /api/ip-addresses (part 2 section 5: empty gives "Please enter an IP address"). */
export const AddIpRequest = z.object({
  ipAddress: text('ipAddress', 100, { trim: true, required: 'Please enter an IP address' }).min(
    1,
    'Please enter an IP address',
  ),
  label,
  type: IpType.default('dedicated'),
  associatedDomains,
});
export type AddIpRequest = z.input<typeof AddIpRequest>;

/** Most addresses one import may add (a /22 of IPv4). */
export const BULK_IMPORT_MAX_ADDRESSES = 1024;

/** Most IP addresses one account monitors: every one is asked of every list on each 2-hourly run. */
export const MAX_MONITORED_IPS = 4096;

/** POST /api/ip-addresses/bulk-import: a CIDR block expands to its addresses, labelled '{label} #1', '#2'... */
export const BulkImportRequest = z.object({
  cidrBlock: text('cidrBlock', 100, { trim: true, required: 'Please enter a CIDR block' }).min(
    1,
    'Please enter a CIDR block',
  ),
  label,
  type: IpType.default('shared'),
  associatedDomains,
});
export type BulkImportRequest = z.input<typeof BulkImportRequest>;
export const BulkImportResponse = z.object({ imported: z.number().int() });

export const IpAddressIdParams = IdParams('IP address id');

/** An address the user's own DMARC reports show sending as their domains and passing, not monitored yet. */
export const IpSuggestion = z.object({
  ipAddress: z.string(),
  /** The user's domains it sent as. */
  domains: z.array(z.string()),
  /** Messages reported from it in the period, and how many of them passed DMARC. */
  messages: z.number().int(),
  passed: z.number().int(),
  lastSeen: z.string(),
});
export type IpSuggestion = z.infer<typeof IpSuggestion>;

/** GET /api/ip-monitoring/status (part 2 section 3, with lastRun and nextRun). */
export const IpMonitoringStatus = z.object({
  /** IP lists in the catalogue. */
  totalProviders: z.number().int(),
  /** Domain lists in the catalogue. */
  totalDomainProviders: z.number().int(),
  /** Of the IP lists, those an IPv4 address is asked, and those that answer for IPv6. */
  ipv4Providers: z.number().int().optional(),
  ipv6Providers: z.number().int().optional(),
  isRunning: z.boolean(),
  lastRun: z.string().nullable(),
  nextRun: z.string().nullable(),
  /** Why the last run failed, when it did. */
  lastError: z.string().nullable(),
});
export type IpMonitoringStatus = z.infer<typeof IpMonitoringStatus>;

/** POST /api/ip-monitoring/trigger: `started` false when a run was already queued or going (it is not run twice). */
export const TriggerMonitoringResponse = z.object({ started: z.boolean(), status: IpMonitoringStatus });

/** A user's domain as the reputation screen shows it. */
export const DomainReputation = z.object({
  id: z.number().int(),
  domain: z.string(),
  reputationScore: z.number().int().nullable(),
  scoreFactors: z.array(ScoreFactor),
  /** Whole years since registration, from RDAP; null when RDAP did not say. */
  domainAge: z.number().int().nullable(),
  registrar: z.string().nullable(),
  blacklistCount: z.number().int(),
  totalProviders: z.number().int(),
  lastChecked: z.string().nullable(),
  reputationDetails: z.array(ReputationDetail),
});
export type DomainReputation = z.infer<typeof DomainReputation>;

/** One stretch of time an IP or domain was on a list: the listing history. */
export const ListingPeriod = z.object({
  listId: z.string(),
  provider: z.string(),
  /** The IP address or domain name. */
  target: z.string(),
  listedAt: z.string(),
  /** null while still listed. */
  delistedAt: z.string().nullable(),
  reason: z.string().nullable(),
});
export type ListingPeriod = z.infer<typeof ListingPeriod>;

/** GET /api/reputation/listings?ipAddressId= or ?domainId= (exactly one). */
export const ListingHistoryQuery = z
  .object({
    ipAddressId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    domainId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  })
  .refine(
    (q) => (q.ipAddressId === undefined) !== (q.domainId === undefined),
    'Give exactly one of ipAddressId and domainId',
  );

/** One list of the catalogue, with the user's ignore switch. */
export const Blocklist = z.object({
  id: z.string(),
  name: z.string(),
  zone: z.string(),
  kind: BlocklistKind,
  tier: BlocklistTier,
  ipv6: z.boolean(),
  removalUrl: z.string(),
  ignored: z.boolean(),
});
export type Blocklist = z.infer<typeof Blocklist>;

export const BlocklistIdParams = z.object({ id: text('list id', 100) });
export const IgnoreBlocklistRequest = z.object({ ignored: z.boolean({ error: 'ignored must be true or false' }) });
