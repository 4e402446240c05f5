import { parse } from 'tldts';
import { z } from 'zod';
import { IdParams, text } from './input';

/** Domain health (part 2, section 3). `pending` until the first DNS check has run. Rule: ADR 007. */
export const DOMAIN_STATUSES = ['healthy', 'warning', 'error', 'pending'] as const;
export const DomainStatus = z.enum(DOMAIN_STATUSES);

export const CheckStatus = z.enum(['valid', 'invalid', 'missing']);
export type CheckStatus = z.infer<typeof CheckStatus>;
/** A record check's outcome; null until checked. */
export const RecordStatus = CheckStatus.nullable();

/** One thing a check found, in plain words, with the concrete fix when there is one. */
export const Finding = z.object({
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  fix: z.string().nullable(),
});
export type Finding = z.infer<typeof Finding>;

const checkBase = {
  status: CheckStatus,
  /** The record found, as published (multi-string TXT joined). */
  record: z.string().nullable(),
  findings: z.array(Finding),
};

/**
 * One term of an SPF record as a receiver evaluates it (RFC 7208 4.6), in the record's order: what it
 * costs in DNS lookups and void lookups (4.6.4), itself and through what it includes or redirects to.
 */
export const SpfTerm = z.object({
  term: z.string(),
  lookups: z.number().int(),
  /** Lookups that find no records (4.6.4) for an IPv4 sender... */
  voids: z.number().int(),
  /** ...and for an IPv6 sender, whose a and mx lookups ask for AAAA records instead of A. */
  voidsIpv6: z.number().int(),
  /** Why it counts as it does: never evaluated (after "all"), ignored, depends on the sender, could not be checked. */
  note: z.string().nullable(),
});
export type SpfTerm = z.infer<typeof SpfTerm>;

export interface SpfNode {
  domain: string;
  record: string | null;
  /** DNS-querying terms of this record itself that a receiver evaluates (include, a, mx, ptr, exists, redirect). */
  lookups: number;
  children: SpfNode[];
  error: string | null;
  /** Every term, in order; absent in checks stored before terms were counted one by one. */
  terms?: SpfTerm[];
}
export const SpfNode: z.ZodType<SpfNode> = z.lazy(() =>
  z.object({
    domain: z.string(),
    record: z.string().nullable(),
    lookups: z.number().int(),
    children: z.array(SpfNode),
    error: z.string().nullable(),
    terms: z.array(SpfTerm).optional(),
  }),
);
// Named, so the OpenAPI document can refer to the recursive tree as one component instead of an unnamed definition.
SpfNode.register(z.globalRegistry, { id: 'SpfNode' });

/** RFC 7208 2.6: the results a receiver's check_host() can give. */
export const SpfResultName = z.enum(['pass', 'fail', 'softfail', 'neutral', 'none', 'permerror', 'temperror']);

/** The record evaluated as a receiver would for one known sending IP. */
export const SpfSenderResult = z.object({ ip: z.string(), result: SpfResultName, reason: z.string() });
export type SpfSenderResult = z.infer<typeof SpfSenderResult>;

export const SpfCheck = z.object({
  ...checkBase,
  /** Counted recursively through include and redirect (RFC 7208 limit: 10). */
  lookupCount: z.number().int(),
  /** Lookups that returned no records for an IPv4 sender (limit: 2). */
  voidLookupCount: z.number().int(),
  /** The same for an IPv6 sender; absent in checks stored before it was counted. */
  voidLookupCountIpv6: z.number().int().optional(),
  tree: SpfNode.nullable(),
  /**
   * Present when the record builds names from the sender (macros such as %{i} or %{h}): the envelope
   * sender and HELO assumed, and the result for each sending IP the product knows (none yet: empty).
   */
  senderEvaluation: z.object({ sender: z.string(), helo: z.string(), results: z.array(SpfSenderResult) }).optional(),
});

/** Selectors the big senders use; every DKIM check probes them besides the ones the user names. */
export const COMMON_DKIM_SELECTORS = [
  'default',
  'google',
  'selector1',
  'selector2',
  'k1',
  'k2',
  's1',
  's2',
  'dkim',
  'mail',
  'smtp',
  'mandrill',
  'mxvault',
];

export const DkimSelectorResult = z.object({
  selector: z.string(),
  status: CheckStatus,
  record: z.string().nullable(),
  keyType: z.string().nullable(),
  keyBits: z.number().int().nullable(),
  findings: z.array(Finding),
  /**
   * Set when this check's lookup of the selector failed (SERVFAIL, timeout) and the result is the
   * one an earlier check found, at this time: a key that did not answer is not a key removed.
   */
  lastFoundAt: z.string().optional(),
});
export const DkimCheck = z.object({
  ...checkBase,
  /** The selectors where a key was found. */
  selectors: z.array(DkimSelectorResult),
  /**
   * Every selector looked up, the user's first and then the common ones, so "none found" can say
   * what was tried. Absent from results stored before it existed.
   */
  triedSelectors: z.array(z.string()).optional(),
  /**
   * Selectors whose DNS lookup failed (SERVFAIL, timeout): neither found nor missing, since a key
   * there may exist. Absent from results stored before it existed.
   */
  uncheckedSelectors: z.array(z.string()).optional(),
});

export const DmarcPolicyName = z.enum(['none', 'quarantine', 'reject']);

/**
 * How the record that applies was found (RFC 9989 4.10.1, the DNS tree walk) and the policy it
 * gives this domain. Absent from checks stored before discovery followed RFC 9989.
 */
export const DmarcDiscovery = z.object({
  /** The domain's own record, its Organizational Domain's, or a public suffix domain's (psd=y). */
  source: z.enum(['author-domain', 'organizational-domain', 'public-suffix-domain']),
  /** RFC 9989 4.10.2; null when a failed lookup left it open. */
  organizationalDomain: z.string().nullable(),
  /** The names the tree walk asked, _dmarc. left off, in order (at most 8). */
  queried: z.array(z.string()),
  /** p for the domain's own record, sp for an existing subdomain, np for a non-existent one. */
  policyTag: z.enum(['p', 'sp', 'np']),
  /** That tag's value as published, when valid. */
  requestedPolicy: DmarcPolicyName.nullable(),
  /** What RFC 9989 receivers apply to failing mail (t=y one level below; none for broken policy tags with a rua=); null: no DMARC processing. */
  appliedPolicy: DmarcPolicyName.nullable(),
  testing: z.boolean(),
});

export const DmarcCheck = z.object({
  ...checkBase,
  /** Where the record was found: _dmarc.<domain>, or the organizational domain's. */
  foundAt: z.string().nullable(),
  /** The record's tags as published. */
  tags: z.record(z.string(), z.string()),
  /** External rua destinations and whether they authorize receiving reports (_report._dmarc). */
  externalReportDestinations: z.array(z.object({ domain: z.string(), authorized: z.boolean() })),
  discovery: DmarcDiscovery.optional(),
  /**
   * The lookup that failed and left the applying record unknown (a parent's _dmarc name answering
   * SERVFAIL, say): neither found nor missing. Absent when the walk was answered.
   */
  failedLookup: z.object({ name: z.string(), code: z.string() }).optional(),
  /**
   * With failedLookup, when an earlier check had an answer: the verdict shown is the one found at
   * this time, kept so a lookup that failed once is not a record removed.
   */
  lastFoundAt: z.string().optional(),
});

export const MxCheck = z.object({
  ...checkBase,
  hosts: z.array(z.object({ exchange: z.string(), priority: z.number().int() })),
});

/** A BIMI mark certificate (the a= evidence) that validated: a VMC for a registered trademark, a CMC for a mark in prior use. */
export const BimiCertificate = z.object({
  type: z.enum(['VMC', 'CMC']),
  /** The organization it was issued to. */
  subject: z.string(),
  /** The mark verifying authority that issued it. */
  issuer: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
  /** The domains it covers (its subjectAltName). */
  domains: z.array(z.string()),
  /** Whether the logo at l= is the one the certificate carries; null when that logo could not be fetched. */
  logoMatches: z.boolean().nullable(),
});
export type BimiCertificate = z.infer<typeof BimiCertificate>;

export const BimiCheck = z.object({
  ...checkBase,
  /** The logo at l=, when it was fetched, and whether it meets SVG Tiny PS. Absent from results stored before it was checked. */
  logo: z.object({ url: z.string(), bytes: z.number().int(), valid: z.boolean() }).optional(),
  /** The a= certificate, when it validated. Absent from results stored before it was checked. */
  certificate: BimiCertificate.optional(),
});

/**
 * Forward-confirmed reverse DNS of one of the domain's own sending IPs (Gmail, Yahoo and Apple ask for it): an inbox
 * test's connecting IP, or a DMARC report source that passed DMARC for most of its mail (not a spoofer).
 */
export const SendingIpReverseDns = z.object({
  ip: z.string(),
  seenIn: z.enum(['inbox-test', 'dmarc-reports']),
  /** PTR names of the IP. */
  reverseDns: z.array(z.string()),
  /** The first PTR name whose A/AAAA records include the IP; null when none does. */
  confirmedName: z.string().nullable(),
  /** The lookup failed (unknown), as opposed to the IP having no PTR. */
  reverseDnsFailed: z.boolean(),
});
export type SendingIpReverseDns = z.infer<typeof SendingIpReverseDns>;

export const DomainChecks = z.object({
  checkedAt: z.string(),
  resolves: z.boolean(),
  ownershipVerified: z.boolean(),
  spf: SpfCheck,
  dkim: DkimCheck,
  dmarc: DmarcCheck,
  mx: MxCheck,
  mtaSts: z.object({ ...checkBase, policy: z.string().nullable() }),
  tlsRpt: z.object(checkBase),
  bimi: BimiCheck,
  /** Absent from checks stored before sending IPs were looked up. */
  sendingIps: z.array(SendingIpReverseDns).optional(),
});
export type DomainChecks = z.infer<typeof DomainChecks>;

/**
 * What a domain is for (part 2, section 3, the public API's Domain: "type (sending, mta)"): a domain
 * mail is sent from, or an MTA's own host domain. Stored and shown; the checks are the same (ADR 027).
 */
export const DOMAIN_TYPES = ['sending', 'mta'] as const;
export const DomainType = z.enum(DOMAIN_TYPES, { error: 'Domain type must be "sending" or "mta"' });
export type DomainType = z.infer<typeof DomainType>;

export const Domain = z.object({
  id: z.number().int(),
  domain: z.string(),
  type: DomainType,
  status: DomainStatus,
  isVerified: z.boolean(),
  /** The TXT record that proves ownership: publish `value` at `name`. */
  verificationRecord: z.object({ name: z.string(), value: z.string() }),
  dkimSelectors: z.array(z.string()),
  notes: z.string().nullable(),
  spfRecord: z.string().nullable(),
  dkimRecord: z.string().nullable(),
  dmarcRecord: z.string().nullable(),
  spfStatus: RecordStatus,
  dkimStatus: RecordStatus,
  dmarcStatus: RecordStatus,
  reputationScore: z.number().nullable(),
  lastCheckedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Domain = z.infer<typeof Domain>;
export const DomainList = z.array(Domain);

/** GET /api/domains/:id and the answer of POST /api/domains/:id/verify. */
export const DomainDetail = Domain.extend({ checks: DomainChecks.nullable() });
export type DomainDetail = z.infer<typeof DomainDetail>;

export const DomainIdParams = IdParams('Domain id');

const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** What is wrong with a lower-cased name as a domain a user may add, or undefined when nothing is. */
function domainNameProblem(name: string): string | undefined {
  const parsed = parse(name);
  if (parsed.isIp) return 'Enter a domain name, not an IP address';
  if (!name.includes('.') || !name.split('.').every((label) => DOMAIN_LABEL.test(label)))
    return 'Enter a valid domain name such as example.com';
  if (!parsed.domain || !parsed.isIcann) return 'Enter a domain under a public suffix, such as example.com';
  return undefined;
}

/**
 * A sending domain a user may add: a hostname under a public suffix, not an IP, at most 253
 * characters, trimmed, lower-cased and without the root's trailing dot. The Add Domain form checks
 * it with this same schema before sending (ADR 044).
 */
export const DomainName = text('Domain', 253, {
  trim: true,
  required: 'Domain is required',
  tooLong: 'Domain names are at most 253 characters',
})
  .toLowerCase()
  .min(1, 'Domain is required')
  .overwrite((name) => name.replace(/\.$/, ''))
  .superRefine((name, ctx) => {
    const problem = domainNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const CreateDomainBody = z.object({
  domain: DomainName,
  type: DomainType.default('sending'),
  /** Run the DNS checks at once: the answer then carries their outcome, as POST /api/domains/:id/verify does. */
  verifyDns: z.boolean({ error: 'verifyDns must be true or false' }).default(false),
});

const selectorRule = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]([a-z0-9-_.]{0,61}[a-z0-9])?$/, 'A DKIM selector is letters, digits, dots, dashes or underscores');

export const UpdateDomainBody = z.object({
  dkimSelectors: z.array(selectorRule).max(20, 'At most 20 DKIM selectors').optional(),
  notes: text('Notes', 2000, { tooLong: 'Notes are at most 2000 characters' }).nullable().optional(),
});
