import { z } from 'zod';

/**
 * GET /api/domains/:id/compliance: the mailbox providers' published sender rules, one row per provider
 * and rule, each judged from the evidence InboxPulse holds for the domain (its DNS checks, its inbox-test
 * messages, Postmaster Tools, complaint and delivery events). A rule without evidence is unknown, never
 * guessed (ADR 055).
 */

export const COMPLIANCE_PROVIDERS = ['gmail', 'gmail-bulk', 'yahoo', 'microsoft', 'apple'] as const;
export const ComplianceProvider = z.enum(COMPLIANCE_PROVIDERS);
export type ComplianceProvider = z.infer<typeof ComplianceProvider>;

export const COMPLIANCE_PROVIDER_NAMES: Record<ComplianceProvider, string> = {
  gmail: 'Gmail (all senders)',
  'gmail-bulk': 'Gmail (more than 5,000 a day)',
  yahoo: 'Yahoo',
  microsoft: 'Microsoft (Outlook.com)',
  apple: 'Apple iCloud',
};

/** What a rule asks, judged once and shown under every provider that asks it. */
export const COMPLIANCE_REQUIREMENTS = [
  'spf-or-dkim',
  'spf-and-dkim',
  'dkim-key-length',
  'dmarc-published',
  'dmarc-aligned',
  'reverse-dns',
  'tls',
  'message-format',
  'no-provider-impersonation',
  'one-click-unsubscribe',
  'spam-rate',
] as const;
export const ComplianceRequirement = z.enum(COMPLIANCE_REQUIREMENTS);
export type ComplianceRequirement = z.infer<typeof ComplianceRequirement>;

export const ComplianceVerdict = z.enum(['met', 'not_met', 'unknown']);
export type ComplianceVerdict = z.infer<typeof ComplianceVerdict>;

/** One piece of evidence: where it comes from, what it shows, and when it was seen (null: no date, e.g. nothing found). */
export const ComplianceEvidence = z.object({
  source: z.enum(['dns-check', 'inbox-test', 'postmaster', 'complaints', 'smtp-replies']),
  text: z.string(),
  at: z.string().nullable(),
  /** The inbox test the evidence comes from, so the screen can link to it. */
  testId: z.number().int().optional(),
});
export type ComplianceEvidence = z.infer<typeof ComplianceEvidence>;

/** SMTP replies received that cite a rule (from MTA and ESP delivery events), by code. */
export const ComplianceSmtpReply = z.object({
  provider: ComplianceProvider,
  code: z.string(),
  /** What the provider's reference says the code means. */
  meaning: z.string(),
  requirement: ComplianceRequirement,
  count: z.number().int(),
  lastSeenAt: z.string(),
  /** The last reply as received. */
  example: z.string(),
});
export type ComplianceSmtpReply = z.infer<typeof ComplianceSmtpReply>;

export const ComplianceRule = z.object({
  /** `<provider>:<requirement>`: stable, the alert's key uses it. */
  id: z.string(),
  provider: ComplianceProvider,
  requirement: ComplianceRequirement,
  title: z.string(),
  /** The provider's own words, quoted short, and the page they are on. */
  wording: z.string(),
  sourceUrl: z.string(),
  verdict: ComplianceVerdict,
  evidence: z.array(ComplianceEvidence),
  /** What to do when the rule is not met or cannot be judged; null when it is met. */
  fix: z.string().nullable(),
});
export type ComplianceRule = z.infer<typeof ComplianceRule>;

export const ComplianceScorecard = z.object({
  domainId: z.number().int(),
  domain: z.string(),
  evaluatedAt: z.string(),
  counts: z.object({ met: z.number().int(), notMet: z.number().int(), unknown: z.number().int() }),
  rules: z.array(ComplianceRule),
  smtpReplies: z.array(ComplianceSmtpReply),
});
export type ComplianceScorecard = z.infer<typeof ComplianceScorecard>;

/** The web page of a domain's scorecard, linked from the domain card and the compliance alert. */
export function domainCompliancePath(domainId: number): string {
  return `/domains/${domainId}/compliance`;
}

/** GET /api/dashboard/compliance: how many rules each checked domain does not meet, for the dashboard's card. */
export const ComplianceOverview = z.object({
  notMet: z.number().int(),
  domains: z.array(
    z.object({ domainId: z.number().int(), domain: z.string(), notMet: z.number().int(), unknown: z.number().int() }),
  ),
});
export type ComplianceOverview = z.infer<typeof ComplianceOverview>;
