import { z } from 'zod';
import { DateFilter, IdParams, text } from './input';

/**
 * DMARC aggregate (RUA) reports: upload, list and analytics (issue 4; part 2, section 3).
 * Percentages are 0-100 with at most two decimals. Dates are ISO 8601 strings (UTC).
 */

export const DMARC_REPORT_STATUSES = ['imported', 'failed'] as const;
export const DmarcReportStatus = z.enum(DMARC_REPORT_STATUSES);

/** The reports list's sender filter (ReportsQuery.sender). */
export const REPORT_SENDERS = ['authenticated', 'unauthenticated'] as const;
export type DmarcReportStatus = z.infer<typeof DmarcReportStatus>;

/** The policy the domain published, as the reporter saw it (RFC 7489 / RFC 9990 policy_published). */
export const PolicyPublished = z.object({
  p: z.string().nullable(),
  sp: z.string().nullable(),
  /** RFC 9990: policy for non-existent subdomains. */
  np: z.string().nullable(),
  adkim: z.string().nullable(),
  aspf: z.string().nullable(),
  /** RFC 7489 only; RFC 9990 replaced it by `testing`. */
  pct: z.number().int().nullable(),
  fo: z.string().nullable(),
  /** RFC 9990: 'y' while the policy is in test mode. */
  testing: z.string().nullable(),
  /** RFC 9990: how the receiver found the DMARC record, 'psl' (RFC 7489) or 'treewalk' (RFC 9989); null when not said. */
  discoveryMethod: z.string().nullable(),
});
export type PolicyPublished = z.infer<typeof PolicyPublished>;

/**
 * One uploaded report, as the reports list shows it. A failed import has status 'failed', its
 * `error` in words, and null report fields: it is kept so the user sees what did not import.
 */
export const DmarcReport = z.object({
  id: z.number().int(),
  status: DmarcReportStatus,
  error: z.string().nullable(),
  fileName: z.string(),
  /** Bytes of the report's XML (after decompression). */
  rawSize: z.number().int(),
  domain: z.string().nullable(),
  /**
   * The XML schema of the report: 'rfc9990' when its <feedback> is in the RFC 9990 namespace
   * (urn:ietf:params:xml:ns:dmarc-2.0), else 'rfc7489'. Null for failed imports and reports stored before it was kept.
   */
  schema: z.enum(['rfc7489', 'rfc9990']).nullable(),
  /** <version> as the report wrote it. */
  version: z.string().nullable(),
  orgName: z.string().nullable(),
  reportId: z.string().nullable(),
  email: z.string().nullable(),
  dateBegin: z.string().nullable(),
  dateEnd: z.string().nullable(),
  /** RFC 9990: the name and version of the reporter's software. */
  generator: z.string().nullable(),
  policyPublished: PolicyPublished.nullable(),
  recordCount: z.number().int(),
  messageCount: z.number().int(),
  /** Messages that passed DMARC: aligned DKIM or aligned SPF pass, or the disposition 'pass' (policy_evaluated). */
  passCount: z.number().int(),
  /** passCount / messageCount in percent; null without messages. */
  compliance: z.number().nullable(),
  /** Mailed reports: whether the mail proved it came from the reporting organisation (DKIM or DMARC pass). Uploads: null. */
  senderAuthenticated: z.boolean().nullable(),
  /**
   * Why the mail did not prove it came from the reporting organisation (senderAuthenticated false), in words;
   * null otherwise. Such a report is kept apart: not counted in the analytics, held within its own allowance.
   */
  unauthenticatedReason: z.string().nullable(),
  /**
   * What was recovered to read the report, as parsedmarc recovers it (bad UTF-8 bytes replaced, a stray "&" or "<"
   * read as text, stray bytes after gzip data), in words. Absent when nothing was.
   */
  warnings: z.array(z.string()).optional(),
  /** A failed import whose file was kept as received: its owner can download it (GET /api/dmarc/reports/:id/raw). */
  rawKept: z.boolean().optional(),
  createdAt: z.string(),
});
export type DmarcReport = z.infer<typeof DmarcReport>;

export const DmarcReportList = z.object({
  items: z.array(DmarcReport),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type DmarcReportList = z.infer<typeof DmarcReportList>;

/** A domain filter: a domain name as the reports store it (lower case). */
const domainFilter = () => text('domain', 253, { trim: true }).toLowerCase().min(1, 'domain must not be empty');

/** The last page the reports list serves: far past any real list, well inside what an OFFSET takes. */
export const PAGE_MAX = 1_000_000;

/** One domain the user's imported reports are about (GET /api/dmarc/report-domains). */
export const DmarcReportDomain = z.object({
  domain: z.string(),
  reports: z.number().int(),
  messages: z.number().int(),
  /** End of the latest period reported on; null when no report gave one. */
  lastReportAt: z.string().nullable(),
});
export type DmarcReportDomain = z.infer<typeof DmarcReportDomain>;

/** At most this many report domains are listed, the most recently reported first. */
export const REPORT_DOMAINS_MAX = 200;

/**
 * GET /api/dmarc/report-domains: every domain with imported reports, whether or not it is one of the
 * user's domains (an uploaded file may hold reports for any domain). The web shows those that are
 * not, so they can be added (POST /api/domains) instead of being imported where nothing shows them.
 */
export const DmarcReportDomainList = z.object({ items: z.array(DmarcReportDomain) });
export type DmarcReportDomainList = z.infer<typeof DmarcReportDomainList>;

/** GET /api/dmarc/reports. `from` and `to` are UTC days, both inclusive, matched against the report's begin date. */
export const ReportsQuery = z
  .object({
    page: z.coerce
      .number({ error: 'page must be a whole number' })
      .int('page must be a whole number')
      .min(1, 'page starts at 1')
      .max(PAGE_MAX, `page can be at most ${PAGE_MAX}`)
      .default(1),
    pageSize: z.coerce
      .number({ error: 'pageSize must be a whole number' })
      .int('pageSize must be a whole number')
      .min(1, 'pageSize must be at least 1')
      .max(100, 'pageSize can be at most 100')
      .default(25),
    domain: domainFilter().optional(),
    status: z.enum(DMARC_REPORT_STATUSES, { error: 'status must be imported or failed' }).optional(),
    /** authenticated: uploads and mail that proved its reporter; unauthenticated: the reports kept apart. */
    sender: z.enum(REPORT_SENDERS, { error: 'sender must be authenticated or unauthenticated' }).optional(),
    from: DateFilter('from').optional(),
    to: DateFilter('to').optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] });
export type ReportsQuery = z.infer<typeof ReportsQuery>;

export const UploadQuery = z.object({
  /** The original file name; the body is the raw file. */
  filename: text('filename', 255, { trim: true }).min(1, 'filename must not be empty').optional(),
});

/** What happened to each report found in an uploaded file (or, added up, in all the files of a form). */
export const UploadResult = z.object({
  imported: z.number().int(),
  /** Reports already stored for this user (same reporter and report id): skipped. */
  duplicates: z.number().int(),
  failed: z.array(z.object({ fileName: z.string(), error: z.string() })),
  /** The rows this upload stored, imported and failed, in file order. */
  reports: z.array(DmarcReport),
  /** Reports read in spite of a defect of their file, and what was ignored to read them (e.g. stray bytes after a gzip file's end). Absent when none. */
  warnings: z.array(z.object({ fileName: z.string(), warning: z.string() })).optional(),
});
export type UploadResult = z.infer<typeof UploadResult>;

/** POST /api/dmarc/upload: the file's result; for a form (multipart/form-data), the files' results added up. */
export const UploadResponse = UploadResult.extend({
  /** Forms only: each file's own result, in form order, under the name the form gave it. */
  files: z.array(UploadResult.extend({ fileName: z.string() })).optional(),
});
export type UploadResponse = z.infer<typeof UploadResponse>;

export const ANALYTICS_PERIODS = [7, 30, 90] as const;
export const AnalyticsQuery = z.object({
  domain: domainFilter().optional(),
  days: z.coerce
    .number({ error: 'days must be 7, 30 or 90' })
    .refine((d) => (ANALYTICS_PERIODS as readonly number[]).includes(d), 'days must be 7, 30 or 90')
    .default(30),
});
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

export const THREAT_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const ThreatSeverity = z.enum(THREAT_SEVERITIES);
export type ThreatSeverity = z.infer<typeof ThreatSeverity>;

/**
 * spoofing: nothing authenticated the mail at all. misaligned: SPF or DKIM passed, but for another
 * domain than the From domain (often a legitimate service that is not set up, or a forwarder).
 */
export const THREAT_TYPES = ['spoofing', 'misaligned'] as const;
export const ThreatType = z.enum(THREAT_TYPES);

const Series = z.array(z.object({ date: z.string(), value: z.number() }));

/** How a source's sending service was recognised: its PTR name, a network the service publishes in its SPF includes, or the domains SPF/DKIM passed for. */
export const ProviderMatchedBy = z.enum(['reverse-dns', 'published-network', 'authenticated-domain']);

/** Of a source's messages, the receivers' results say SPF (or DKIM) passed aligned for 90% or more, some, or under 10%. */
export const CoverageLevel = z.enum(['covered', 'partly', 'not covered']);

/** Whether the user's SPF and DKIM cover a source, from the evidence at hand, and what to do about what they do not. */
export const SourceCoverage = z.object({
  spf: CoverageLevel,
  dkim: CoverageLevel,
  /**
   * Whether the SPF records of the source's From domains, as their last DNS check read them, include the
   * service's include. Absent when the service documents no include or none of those domains has a stored check:
   * then only the reports say.
   */
  spfRecord: z
    .object({ include: z.string(), includedBy: z.array(z.string()), notIncludedBy: z.array(z.string()) })
    .optional(),
  /** The analytics advice's fix, when SPF (DKIM) does not cover the source and it is a sender to set up, not a forger. */
  spfFix: z.string().optional(),
  dkimFix: z.string().optional(),
});
export type SourceCoverage = z.infer<typeof SourceCoverage>;

/** Messages from one sending source: an organisation (by reverse DNS), a sending service (by its networks) or, unresolved, one IP. */
export const DmarcSource = z.object({
  ips: z.array(z.string()),
  /** The PTR name of the group's busiest IP; null when it has none or the lookup failed. */
  reverseDns: z.string().nullable(),
  /** Registrable domain of the PTR name (e.g. google.com). */
  organisation: z.string().nullable(),
  /** A known sending service (SendGrid, Google Workspace, ...); null when not recognised. */
  provider: z.string().nullable(),
  providerMatchedBy: ProviderMatchedBy.optional(),
  /**
   * Registrable domains other than the From domain's that SPF or DKIM passed for (auth_results):
   * whose return-path or signature the mail carried. Read for the busiest sources only; empty for the rest.
   */
  authDomains: z.array(z.string()),
  count: z.number().int(),
  /** Messages whose SPF / DKIM result was an aligned pass (policy_evaluated). */
  spfAligned: z.number().int(),
  dkimAligned: z.number().int(),
  /** Messages that failed DMARC (neither aligned, and no 'pass' disposition). */
  failed: z.number().int(),
  /** Messages by disposition the receiver applied: none, quarantine, reject, and RFC 9990's pass (delivered, passed DMARC under an enforcing policy). */
  dispositions: z.record(z.string(), z.number().int()),
  coverage: SourceCoverage.optional(),
});
export type DmarcSource = z.infer<typeof DmarcSource>;

export const DmarcThreat = z.object({
  type: ThreatType,
  severity: ThreatSeverity,
  sourceIPs: z.array(z.string()),
  /** Messages from this source that failed DMARC in the period. */
  frequency: z.number().int(),
  description: z.string(),
});
export type DmarcThreat = z.infer<typeof DmarcThreat>;

/**
 * A reporting organisation and the end of the last period it reported on: a reporter that goes
 * quiet shows here. `daily`: it sent reports on at least 3 different days of the week before its
 * last one. `stopped`: a daily reporter silent for 3 days or more (an alert is raised once).
 */
export const DmarcReporter = z.object({
  orgName: z.string(),
  lastReportAt: z.string(),
  reports: z.number().int(),
  /** Whole days since lastReportAt. */
  silentDays: z.number().int(),
  daily: z.boolean(),
  stopped: z.boolean(),
});
export type DmarcReporter = z.infer<typeof DmarcReporter>;

/** GET /api/dmarc/analytics?domain&days: the spec's fields, plus sources and reporters. */
export const DmarcAnalytics = z.object({
  days: z.number().int(),
  domain: z.string().nullable(),
  totalReports: z.number().int(),
  totalMessages: z.number().int(),
  /** Message-weighted DMARC pass rate in percent; null without messages. */
  averageCompliance: z.number().nullable(),
  threatSummary: z.object({
    low: z.number().int(),
    medium: z.number().int(),
    high: z.number().int(),
    critical: z.number().int(),
  }),
  trends: z.object({ volume: Series, compliance: Series }),
  topThreats: z.array(DmarcThreat),
  recommendations: z.array(z.string()),
  sources: z.array(DmarcSource),
  reporters: z.array(DmarcReporter),
});
export type DmarcAnalytics = z.infer<typeof DmarcAnalytics>;

/** One record of a report: a source IP, its message count, what the receiver saw and did. */
export const DmarcRecord = z.object({
  sourceIp: z.string(),
  count: z.number().int(),
  disposition: z.string(),
  /** policy_evaluated: aligned results. */
  dkimResult: z.string(),
  spfResult: z.string(),
  headerFrom: z.string(),
  envelopeFrom: z.string().nullable(),
  /** auth_results, as raw (not necessarily aligned) results; humanResult: the receiver's words on the result (RFC 9990 human_result). */
  dkimAuth: z.array(
    z.object({
      domain: z.string(),
      selector: z.string().nullable(),
      result: z.string(),
      humanResult: z.string().nullable(),
    }),
  ),
  spfAuth: z.array(
    z.object({
      domain: z.string(),
      scope: z.string().nullable(),
      result: z.string(),
      humanResult: z.string().nullable(),
    }),
  ),
});
export type DmarcRecord = z.infer<typeof DmarcRecord>;

/** At most this many records come with a report's detail, the busiest first. */
export const REPORT_DETAIL_RECORDS = 500;

/** GET /api/dmarc/reports/:id */
export const DmarcReportDetail = DmarcReport.extend({ records: z.array(DmarcRecord) });
export type DmarcReportDetail = z.infer<typeof DmarcReportDetail>;

export const ReportParams = IdParams('Report id');

/**
 * The one report address: reports mailed to dmarc@INBOUND_DOMAIN reach the users who verified the
 * report's domain (server/dmarc/dmarc-mailbox.ts routes it). The web never builds it: it reads
 * `reportAddress` from GET /api/dmarc/intake.
 */
export const DMARC_REPORT_LOCAL_PART = 'dmarc';
export const dmarcReportAddress = (inboundDomain: string) => `${DMARC_REPORT_LOCAL_PART}@${inboundDomain}`;

/**
 * GET /api/dmarc/intake: where reports can be sent. `reportAddress` is the address on the product's
 * inbound SMTP listener to put in a domain's rua= (mailto:<reportAddress>). Reports reach the
 * users who have the report's domain verified. `mailboxPolled`: an operator IMAP mailbox is polled too.
 */
export const DmarcIntake = z.object({
  reportAddress: z.string(),
  mailboxPolled: z.boolean(),
});
export type DmarcIntake = z.infer<typeof DmarcIntake>;
