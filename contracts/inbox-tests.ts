import { z } from 'zod';
import { IdParams } from './input';

/**
 * Inbox placement tests (issue 5; part 2, sections 2-9): create a test, send one real e-mail to its
 * address and to the seed addresses, read where it landed and the analysis of the message.
 * Dates are ISO 8601 strings.
 */

export const INBOX_TEST_STATUSES = ['awaiting_email', 'running', 'completed', 'failed'] as const;
export const InboxTestStatus = z.enum(INBOX_TEST_STATUSES);
export type InboxTestStatus = z.infer<typeof InboxTestStatus>;

/** An inbox placement test with its totals over every seed (dashboard and list use). */
export const InboxTest = z.object({
  id: z.number().int(),
  status: InboxTestStatus,
  testType: z.string(),
  testEmailAddress: z.string(),
  /** The subject of the received message; until then the default subject "Inbox Test {id}". */
  subject: z.string().nullable(),
  /** "[TEST-{id}]": the tag the user puts in the subject, which seed mailboxes are searched for. */
  subjectTag: z.string(),
  /** The seed addresses to send the same message to; empty when no seed network is configured. */
  seedAddresses: z.array(z.string()),
  /** The sending provider detected on the received message, when known. */
  provider: z.string().nullable(),
  totalSeeds: z.number().int(),
  inboxCount: z.number().int(),
  spamCount: z.number().int(),
  missingCount: z.number().int(),
  /** The analysis score (0-10) once the message has arrived. */
  score: z.number().nullable(),
  receivedAt: z.string().nullable(),
  /** Why the test failed, in words. */
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  /** How many minutes the seeds are searched after the message arrives (the server's PLACEMENT_WINDOW_MINUTES): a running test ends within it. */
  placementWindowMinutes: z.number().int().positive().optional(),
  /** Whether the message's one-click unsubscribe link is tried (the RFC 8058 POST). */
  oneClickUnsubscribeTest: z.boolean().optional(),
});
export type InboxTest = z.infer<typeof InboxTest>;

/** The window when none is given: the server's default, for which the spec words the expected completion "5-10 minutes". */
const DEFAULT_PLACEMENT_WINDOW_MINUTES = 10;

/**
 * When a running test should end, as the running-test text says it: from half the window to the
 * whole of it, since most seeds answer well before the window closes ("5-10 minutes" for the default 10).
 */
export function expectedCompletion(windowMinutes = DEFAULT_PLACEMENT_WINDOW_MINUTES): string {
  const earliest = Math.ceil(windowMinutes / 2);
  if (earliest === windowMinutes) return `${windowMinutes} ${windowMinutes === 1 ? 'minute' : 'minutes'}`;
  return `${earliest}-${windowMinutes} minutes`;
}
export const InboxTestList = z.array(InboxTest);

export const InboxTestIdParams = IdParams('Test id');

export const CreateInboxTestBody = z.object({
  testType: z.literal('automatic', { error: 'testType must be "automatic"' }),
  /** Try the message's one-click unsubscribe link (the RFC 8058 POST); on when not given. */
  oneClickUnsubscribeTest: z.boolean({ error: 'oneClickUnsubscribeTest must be true or false' }).optional(),
});
export type CreateInboxTestBody = z.infer<typeof CreateInboxTestBody>;

/**
 * One result row: a provider at a region and country, over the seeds it has in the test. The product's
 * own analyser row (no seed network) has isAnalyser true. Pending seeds have not answered yet.
 */
export const InboxTestResultRow = z.object({
  provider: z.string(),
  region: z.string(),
  country: z.string(),
  mailboxSystem: z.string(),
  isAnalyser: z.boolean(),
  inboxCount: z.number().int(),
  spamCount: z.number().int(),
  missingCount: z.number().int(),
  pendingCount: z.number().int(),
  seedsUsed: z.number().int(),
  /** Where found messages sat: folder names and Gmail tabs ("INBOX", "Junk", "Promotions tab"), and why seeds are missing when known. */
  notes: z.array(z.string()),
});
export type InboxTestResultRow = z.infer<typeof InboxTestResultRow>;
export const InboxTestResults = z.array(InboxTestResultRow);

export const SeedNetworkStatus = z.object({
  /** false when no SEED_NETWORK_FILE is configured: tests then run on the product's own analyser. */
  configured: z.boolean(),
  totalProviders: z.number().int(),
  totalAddresses: z.number().int(),
  /** Region name to provider count. */
  byRegion: z.record(z.string(), z.number().int()),
});
export type SeedNetworkStatus = z.infer<typeof SeedNetworkStatus>;

// ---- Message analysis -------------------------------------------------------------------------

export const FindingSeverity = z.enum(['pass', 'info', 'warning', 'error']);
export const AnalysisCategory = z.enum(['authentication', 'reputation', 'content', 'spamassassin']);

/** One thing the analysis found (server/engine/message-analysis/checks/finding.ts). */
export const AnalysisFinding = z.object({
  id: z.string(),
  category: AnalysisCategory,
  severity: FindingSeverity,
  title: z.string(),
  detail: z.string().nullable(),
  deduction: z.number(),
  fix: z.string().nullable(),
});
export type AnalysisFinding = z.infer<typeof AnalysisFinding>;

export const Verdict = z.enum(['Excellent', 'Good', 'Needs work', 'Poor']);

export const AuthenticationReport = z.object({
  spf: z.object({
    result: z.string(),
    domain: z.string().nullable(),
    record: z.string().nullable(),
    comment: z.string().nullable(),
  }),
  dkim: z.array(
    z.object({
      domain: z.string(),
      selector: z.string().nullable(),
      result: z.string(),
      aligned: z.boolean(),
      algorithm: z.string().nullable(),
      keyBits: z.number().nullable(),
      comment: z.string().nullable(),
    }),
  ),
  dmarc: z
    .object({
      result: z.string(),
      /** The From (Author) domain; reports analysed before RFC 9989 discovery held its PSL organizational domain. */
      domain: z.string().nullable(),
      policy: z.string().nullable(),
      record: z.string().nullable(),
      spfAligned: z.boolean(),
      dkimAligned: z.boolean(),
      /**
       * How the policy was found (RFC 9989 4.10.1): where the record is, whose it is, the From
       * domain's Organizational Domain (4.10.2) and the alignment modes. Absent from reports analysed
       * before DMARC followed RFC 9989.
       */
      policyDomain: z.string().nullable().optional(),
      policySource: z.enum(['author-domain', 'organizational-domain', 'public-suffix-domain']).nullable().optional(),
      organizationalDomain: z.string().nullable().optional(),
      adkim: z.enum(['r', 's']).optional(),
      aspf: z.enum(['r', 's']).optional(),
      /** t=y: the published policy is applied one level below. */
      testing: z.boolean().optional(),
    })
    .nullable(),
  arc: z.object({ result: z.string(), instance: z.number().nullable() }).nullable(),
  bimi: z.object({ result: z.string(), logo: z.string().nullable(), comment: z.string().nullable() }).nullable(),
  authenticationResults: z.string(),
  headerFrom: z.array(z.string()),
});

export const ConnectingIpReport = z.object({
  ip: z.string(),
  reverseDns: z.array(z.string()),
  confirmedName: z.string().nullable(),
  reverseDnsFailed: z.boolean(),
  blocklists: z.array(
    z.object({
      list: z.string(),
      zone: z.string(),
      status: z.enum(['listed', 'clear', 'unknown']),
      reason: z.string().nullable(),
      lookupUrl: z.string(),
    }),
  ),
});

export const ContentFactsReport = z.object({
  sizeBytes: z.number().int(),
  subject: z.string().nullable(),
  hasText: z.boolean(),
  hasHtml: z.boolean(),
  textToHtmlRatio: z.number().nullable(),
  imageCount: z.number().int(),
  linkCount: z.number().int(),
  linkDomains: z.array(z.string()),
  shorteners: z.array(z.string()),
  listUnsubscribe: z.string().nullable(),
  listUnsubscribePost: z.string().nullable(),
  oneClickUnsubscribe: z.boolean(),
  /** A way out the reader sees in the body (an unsubscribe link); absent in reports analysed before it was kept. */
  bodyUnsubscribeLink: z.boolean().optional(),
  hasDate: z.boolean(),
  hasMessageId: z.boolean(),
});

/** spamd's verdict; score, threshold and isSpam are null (and `error` says why) when spamd could not be asked. */
export const SpamAssassinReport = z.object({
  score: z.number().nullable(),
  threshold: z.number().nullable(),
  isSpam: z.boolean().nullable(),
  rules: z.array(z.object({ name: z.string(), score: z.number().nullable(), description: z.string().nullable() })),
  error: z.string().nullable(),
});
export type SpamAssassinReport = z.infer<typeof SpamAssassinReport>;

/**
 * What scored a message. InboxPulse's own checks (authentication, the connecting IP, content rules)
 * always run; SpamAssassin only where the server has SPAMD_HOST, so a score without it is never
 * passed off as the same thing.
 */
export const ScoringEngine = z.object({
  id: z.enum(['inboxpulse', 'spamassassin']),
  name: z.string(),
  status: z.enum(['ran', 'not-configured', 'failed']),
});
export type ScoringEngine = z.infer<typeof ScoringEngine>;

/**
 * What the message's one-click unsubscribe link did when InboxPulse sent it the RFC 8058 POST
 * (server/inbox-tests/one-click-unsubscribe.ts). Only `accepted` is what RFC 8058 asks for.
 */
export const ONE_CLICK_OUTCOMES = [
  'accepted',
  'refused',
  'requires_get',
  'requires_confirmation',
  'requires_login',
  'redirected',
  'timed_out',
  'blocked',
  'unreachable',
  'not_https',
  'not_offered',
  'turned_off',
] as const;
export const OneClickUnsubscribeResult = z.object({
  outcome: z.enum(ONE_CLICK_OUTCOMES),
  /** The verdict in words. */
  summary: z.string(),
  /** Why RFC 8058 does not allow what the link did; null when it did what the RFC asks or was not tried. */
  rfcReason: z.string().nullable(),
  /** The link without its query (which may hold a recipient's token); null when there was none to try. */
  url: z.string().nullable(),
  /** The status of the last answer; null when there was none. */
  status: z.number().int().nullable(),
  /** From the first request to the last answer, in milliseconds; null when nothing was sent. */
  durationMs: z.number().int().nullable(),
  /** Each redirect answered, in order: its status and where it pointed (without its query). */
  redirects: z.array(z.object({ status: z.number().int(), location: z.string() })),
  /** Whether the message has a List-Unsubscribe header at all. */
  hasListUnsubscribe: z.boolean(),
  testedAt: z.string().nullable(),
});
export type OneClickUnsubscribeResult = z.infer<typeof OneClickUnsubscribeResult>;

/**
 * The analysis of one message. `simulated` reports come from POST /api/simulate-email: no SMTP
 * session, so no envelope, no SPF and no connecting-IP checks.
 */
export const InboxTestReport = z.object({
  simulated: z.boolean(),
  analysedAt: z.string(),
  score: z.number(),
  verdict: Verdict,
  /** The findings that cost points, biggest first, each with its fix. */
  deductions: z.array(
    z.object({ id: z.string(), title: z.string(), deduction: z.number(), fix: z.string().nullable() }),
  ),
  findings: z.array(AnalysisFinding),
  envelope: z
    .object({
      remoteIp: z.string(),
      helo: z.string(),
      mailFrom: z.string(),
      /** The TLS the sending server used to hand the message over, 'none' over plain SMTP; absent when not known. */
      tls: z.string().nullable().optional(),
    })
    .nullable(),
  authentication: AuthenticationReport.nullable(),
  connectingIp: ConnectingIpReport.nullable(),
  content: ContentFactsReport,
  /** Null when SPAMD_HOST is not configured. */
  spamAssassin: SpamAssassinReport.nullable(),
  engines: z.array(ScoringEngine),
  /** The live one-click unsubscribe test of an inbox test's message; absent from simulated and older reports. */
  oneClickUnsubscribe: OneClickUnsubscribeResult.optional(),
});
export type InboxTestReport = z.infer<typeof InboxTestReport>;

const MAX_SIMULATED_PART = 1_000_000;

export const SimulateEmailBody = z.object({
  fromEmail: z
    .email({ error: 'fromEmail must be an e-mail address' })
    .max(320, 'fromEmail must be at most 320 characters'),
  subject: z.string({ error: 'subject is required' }).max(998, 'subject is longer than 998 characters'),
  content: z
    .string({ error: 'content is required' })
    .max(MAX_SIMULATED_PART, 'content is longer than 1,000,000 characters'),
  htmlContent: z.string().max(MAX_SIMULATED_PART, 'htmlContent is longer than 1,000,000 characters').optional(),
});
export type SimulateEmailBody = z.infer<typeof SimulateEmailBody>;
