import { z } from 'zod';
import type { PostmasterDay, ReputationCategory } from '@contracts/postmaster';
import { addDays } from '@contracts/utc-day';
import { GoogleError, googleJson } from './google-http';

/*
 * The Gmail Postmaster Tools API v1: the domains the signed-in Google account registered
 * (GET /v1/domains) and their daily traffic statistics (GET /v1/domains/{domain}/trafficStats), read
 * with the shapes of Google's API reference. Both lists are paged with pageToken.
 */

const NAME = 'Gmail Postmaster Tools';
/** Pages read per list: far above a real account (a page holds up to 200 days or many domains), a stop for a server that never ends. */
const MAX_PAGES = 20;

const DomainList = z.object({
  domains: z.array(z.object({ name: z.string(), permission: z.string().optional() })).optional(),
  nextPageToken: z.string().optional(),
});

const ratio = z.number().min(0).max(1).optional();
/** int64 fields come as JSON strings (proto3 JSON mapping); some servers send numbers. */
const int64 = z.union([z.number(), z.string().regex(/^\d+$/)]).transform(Number);

const TrafficStats = z.object({
  name: z.string(),
  userReportedSpamRatio: ratio,
  userReportedSpamRatioLowerBound: ratio,
  userReportedSpamRatioUpperBound: ratio,
  ipReputations: z
    .array(
      z.object({
        reputation: z.string().optional(),
        ipCount: int64.optional(),
        sampleIps: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  domainReputation: z.string().optional(),
  spammyFeedbackLoops: z.array(z.object({ id: z.string().optional(), spamRatio: z.number().optional() })).optional(),
  spfSuccessRatio: ratio,
  dkimSuccessRatio: ratio,
  dmarcSuccessRatio: ratio,
  outboundEncryptionRatio: ratio,
  inboundEncryptionRatio: ratio,
  deliveryErrors: z
    .array(
      z.object({
        errorClass: z.string().optional(),
        errorType: z.string().optional(),
        errorRatio: z.number().optional(),
      }),
    )
    .optional(),
});
const TrafficStatsList = z.object({
  trafficStats: z.array(TrafficStats).optional(),
  nextPageToken: z.string().optional(),
});

function read<T>(schema: z.ZodType<T>, answer: unknown): T {
  const parsed = schema.safeParse(answer);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new GoogleError(
    `${NAME} answered in an unexpected shape${where}: ${issue?.message ?? 'not as documented'}`,
    'malformed',
  );
}

export interface PostmasterDomain {
  domain: string;
  /** OWNER or READER; domains the account may not read (NONE) are left out. */
  permission: string;
}

/** The domains this Google account may read in Postmaster Tools, by name. */
export async function listDomains(baseUrl: string, accessToken: string): Promise<PostmasterDomain[]> {
  const found = new Map<string, PostmasterDomain>();
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ pageSize: '100', ...(pageToken ? { pageToken } : {}) });
    const answer = read(DomainList, await googleJson(NAME, `${baseUrl}/v1/domains?${query}`, { accessToken }));
    for (const { name, permission } of answer.domains ?? []) {
      const domain = name.replace(/^domains\//, '').toLowerCase();
      if (!domain || permission === 'NONE') continue;
      found.set(domain, { domain, permission: permission ?? 'PERMISSION_UNSPECIFIED' });
    }
    pageToken = answer.nextPageToken || undefined;
    if (!pageToken) break;
  }
  return [...found.values()].sort((a, b) => a.domain.localeCompare(b.domain));
}

const REPUTATIONS = new Set<string>(['HIGH', 'MEDIUM', 'LOW', 'BAD']);
const dayOfName = (name: string) =>
  name
    .match(/\/trafficStats\/(\d{4})(\d{2})(\d{2})$/)
    ?.slice(1)
    .join('-');
const dateParams = (prefix: string, day: string) => {
  const [year, month, date] = day.split('-').map(Number);
  return { [`${prefix}.year`]: String(year), [`${prefix}.month`]: String(month), [`${prefix}.day`]: String(date) };
};

function toDay(domain: string, stats: z.infer<typeof TrafficStats>): PostmasterDay | undefined {
  const date = dayOfName(stats.name);
  if (!date) return undefined;
  const orNull = (value: number | undefined) => value ?? null;
  return {
    domain,
    date,
    userReportedSpamRatio: orNull(stats.userReportedSpamRatio),
    userReportedSpamRatioLowerBound: orNull(stats.userReportedSpamRatioLowerBound),
    userReportedSpamRatioUpperBound: orNull(stats.userReportedSpamRatioUpperBound),
    spfSuccessRatio: orNull(stats.spfSuccessRatio),
    dkimSuccessRatio: orNull(stats.dkimSuccessRatio),
    dmarcSuccessRatio: orNull(stats.dmarcSuccessRatio),
    inboundEncryptionRatio: orNull(stats.inboundEncryptionRatio),
    outboundEncryptionRatio: orNull(stats.outboundEncryptionRatio),
    // REPUTATION_CATEGORY_UNSPECIFIED says "no reputation information": the same as none.
    domainReputation:
      stats.domainReputation && REPUTATIONS.has(stats.domainReputation)
        ? (stats.domainReputation as ReputationCategory)
        : null,
    ipReputations: (stats.ipReputations ?? [])
      .filter((r) => r.reputation && REPUTATIONS.has(r.reputation))
      .map((r) => ({ reputation: r.reputation!, ipCount: r.ipCount ?? 0, sampleIps: r.sampleIps ?? [] })),
    deliveryErrors: (stats.deliveryErrors ?? [])
      .filter((e) => e.errorType && e.errorRatio !== undefined)
      .map((e) => ({
        errorClass: e.errorClass ?? 'DELIVERY_ERROR_CLASS_UNSPECIFIED',
        errorType: e.errorType!,
        errorRatio: e.errorRatio!,
      })),
    spammyFeedbackLoops: (stats.spammyFeedbackLoops ?? [])
      .filter((f) => f.id)
      .map((f) => ({ id: f.id!, spamRatio: f.spamRatio ?? 0 })),
  };
}

/** The domain's figures from `from` to `to` (UTC days, both inclusive); days Google has none for (little traffic) are absent. */
export async function listTrafficStats(
  baseUrl: string,
  accessToken: string,
  domain: string,
  from: string,
  to: string,
): Promise<PostmasterDay[]> {
  const days = new Map<string, PostmasterDay>();
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    // endDate is exclusive in the API.
    const query = new URLSearchParams({
      ...dateParams('startDate', from),
      ...dateParams('endDate', addDays(to, 1)),
      pageSize: '200',
      ...(pageToken ? { pageToken } : {}),
    });
    const url = `${baseUrl}/v1/domains/${encodeURIComponent(domain)}/trafficStats?${query}`;
    const answer = read(TrafficStatsList, await googleJson(NAME, url, { accessToken }));
    for (const stats of answer.trafficStats ?? []) {
      const day = toDay(domain, stats);
      if (day && day.date >= from && day.date <= to) days.set(day.date, day);
    }
    pageToken = answer.nextPageToken || undefined;
    if (!pageToken) break;
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}
