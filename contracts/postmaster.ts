import { z } from 'zod';
import { text } from './input';

/*
 * Google Postmaster Tools: connecting a Google account (OAuth), and the Gmail figures imported from it
 * daily. Ratios are Google's own, from 0 to 1; the screens show them as percentages.
 */

/** The integration's provider id (content/integrations.ts, part 2 section 3). */
export const POSTMASTER_PROVIDER = 'google-postmaster';

/** Where Google sends the browser back (part 2, section 7); registered as the OAuth client's redirect URI. */
export const GOOGLE_CALLBACK_PATH = '/oauth/google/callback';

/** The page the callback lands on, with `google=<outcome>` added. */
export const POSTMASTER_MANAGE_PATH = `/integrations?manage=${POSTMASTER_PROVIDER}`;
export const GOOGLE_OUTCOME_PARAM = 'google';

/** POST /api/integrations/google-postmaster/connect: the browser goes to this Google sign-in page. */
export const PostmasterConnectStart = z.object({
  authorizationUrl: z.string(),
  /** How long the sign-in may take before the link stops working, in seconds. */
  expiresInSeconds: z.number().int(),
});
export type PostmasterConnectStart = z.infer<typeof PostmasterConnectStart>;

/** The answer of the connect route when the server has no Google OAuth client (the self-hosted default). */
export const GOOGLE_NOT_CONFIGURED =
  'Google sign-in is not configured on this server, so Google Postmaster Tools cannot be connected. The operator sets GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET to turn it on.';

/** What the callback tells the integrations page, as `?manage=google-postmaster&google=<outcome>`. */
export const PostmasterConnectOutcome = z.enum([
  'connected',
  /** The user pressed Cancel on Google's consent screen. */
  'access_denied',
  /** The user left the Postmaster Tools permission unticked. */
  'scope_denied',
  /** Google refused the sign-in code (expired, already used). */
  'invalid_grant',
  /** The callback did not come from a sign-in this browser started minutes ago (forged, reused, expired, or signed out since). */
  'invalid_state',
  'no_refresh_token',
  'google_error',
  'unavailable',
]);
export type PostmasterConnectOutcome = z.infer<typeof PostmasterConnectOutcome>;

/** The words for each outcome: the integrations page shows them as a toast or a notice. */
export const CONNECT_OUTCOME_MESSAGES: Record<
  PostmasterConnectOutcome,
  { title: string; description: string; success: boolean }
> = {
  connected: {
    success: true,
    title: 'Google Postmaster Tools connected',
    description: "Gmail's figures for your verified domains are being imported; they are refreshed every day.",
  },
  access_denied: {
    success: false,
    title: 'Google Postmaster Tools not connected',
    description:
      'You did not allow InboxPulse to read your Postmaster Tools data on Google’s screen, so nothing was connected. Connect again to retry.',
  },
  scope_denied: {
    success: false,
    title: 'Google Postmaster Tools not connected',
    description:
      'Google signed you in, but the permission to read Postmaster Tools data was not granted. Connect again and leave that permission ticked.',
  },
  invalid_grant: {
    success: false,
    title: 'Google sign-in expired',
    description: 'Google refused the sign-in code (it expired or was already used). Connect again.',
  },
  invalid_state: {
    success: false,
    title: 'Google sign-in not accepted',
    description:
      'This sign-in was not started from this browser in the last few minutes (or you signed out meanwhile), so it was refused to protect your account. Start again with Connect.',
  },
  no_refresh_token: {
    success: false,
    title: 'Google Postmaster Tools not connected',
    description:
      'Google did not grant lasting access. Remove InboxPulse under "Third-party apps with account access" in your Google Account, then connect again.',
  },
  google_error: {
    success: false,
    title: 'Google Postmaster Tools not connected',
    description:
      'Google refused the sign-in. Try again; if it keeps failing, the server’s Google OAuth client may be set up wrongly.',
  },
  unavailable: {
    success: false,
    title: 'Google could not be reached',
    description: 'Google did not answer while finishing the sign-in. Try again in a few minutes.',
  },
};

/**
 * not_configured: the server has no Google OAuth client; not_connected: nobody connected a Google
 * account; needs_reconnect: Google revoked the access (or it expired), a new sign-in is needed.
 */
export const PostmasterConnectionState = z.enum(['not_configured', 'not_connected', 'connected', 'needs_reconnect']);
export type PostmasterConnectionState = z.infer<typeof PostmasterConnectionState>;

/** GET /api/postmaster/status. */
export const PostmasterStatus = z.object({
  state: PostmasterConnectionState,
  /** The domains the Google account has in Postmaster Tools, as of the last import. */
  domains: z.array(z.string()),
  connectedAt: z.string().nullable(),
  lastImportAt: z.string().nullable(),
  /** Why the last import failed (in Google's words where it gave some), until one succeeds. */
  lastError: z.string().nullable(),
});
export type PostmasterStatus = z.infer<typeof PostmasterStatus>;

export const ReputationCategory = z.enum(['HIGH', 'MEDIUM', 'LOW', 'BAD']);
export type ReputationCategory = z.infer<typeof ReputationCategory>;

export const REPUTATION_LABELS: Record<ReputationCategory, string> = {
  HIGH: 'High',
  MEDIUM: 'Medium',
  LOW: 'Low',
  BAD: 'Bad',
};

const Ratio = z.number().nullable();

/** One domain's Gmail figures for one day (domains.trafficStats). A metric Google left out (too little mail that day) is null. */
export const PostmasterDay = z.object({
  domain: z.string(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** Spam reported by Gmail users / mail delivered to their inbox; DKIM-authenticated mail only. */
  userReportedSpamRatio: Ratio,
  userReportedSpamRatioLowerBound: Ratio,
  userReportedSpamRatioUpperBound: Ratio,
  spfSuccessRatio: Ratio,
  dkimSuccessRatio: Ratio,
  dmarcSuccessRatio: Ratio,
  /** Mail from the domain that reached Gmail over TLS. */
  inboundEncryptionRatio: Ratio,
  /** Mail from Gmail to the domain accepted over TLS. */
  outboundEncryptionRatio: Ratio,
  domainReputation: ReputationCategory.nullable(),
  ipReputations: z.array(
    z.object({ reputation: z.string(), ipCount: z.number().int(), sampleIps: z.array(z.string()) }),
  ),
  deliveryErrors: z.array(z.object({ errorClass: z.string(), errorType: z.string(), errorRatio: z.number() })),
  spammyFeedbackLoops: z.array(z.object({ id: z.string(), spamRatio: z.number() })),
});
export type PostmasterDay = z.infer<typeof PostmasterDay>;

export const POSTMASTER_DAYS_MAX = 120;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/** GET /api/postmaster/stats: the last `days` days (UTC), of one domain or all. */
export const PostmasterStatsQuery = z.object({
  domain: text('domain', 253, { trim: true })
    .toLowerCase()
    .regex(DOMAIN, 'domain must be a domain name such as example.com')
    .optional(),
  days: z.coerce
    .number({ error: 'days must be a number' })
    .int('days must be a whole number')
    .min(1, 'days must be at least 1')
    .max(POSTMASTER_DAYS_MAX, `days must be at most ${POSTMASTER_DAYS_MAX}`)
    .default(30),
});
export type PostmasterStatsQuery = z.infer<typeof PostmasterStatsQuery>;

export const PostmasterStats = z.object({
  /** The first and last UTC day asked for, inclusive. */
  from: z.string(),
  to: z.string(),
  /** By domain, then by day (oldest first). */
  days: z.array(PostmasterDay),
});
export type PostmasterStats = z.infer<typeof PostmasterStats>;

/**
 * Gmail's sender guidelines: keep the user-reported spam rate below 0.1% and never let it reach
 * 0.3% (bulk senders at or above it lose mitigation and see their mail rejected or filtered).
 */
export const GMAIL_SPAM_RATE_TARGET = 0.001;
export const GMAIL_SPAM_RATE_LIMIT = 0.003;

export type SpamRateLevel = 'good' | 'warn' | 'bad';

export function spamRateLevel(ratio: number): SpamRateLevel {
  if (ratio >= GMAIL_SPAM_RATE_LIMIT) return 'bad';
  return ratio >= GMAIL_SPAM_RATE_TARGET ? 'warn' : 'good';
}

/** Google's delivery error types in plain words (DeliveryErrorType, Postmaster Tools API v1). */
export const DELIVERY_ERROR_REASONS: Record<string, string> = {
  RATE_LIMIT_EXCEEDED: 'Rate limited: Gmail saw a suspiciously high sending rate and limited it for now',
  SUSPECTED_SPAM: 'Suspected spam',
  CONTENT_SPAMMY: 'Spammy content',
  BAD_ATTACHMENT: 'Attachment type Gmail does not accept',
  BAD_DMARC_POLICY: 'Failed DMARC with a reject policy',
  LOW_IP_REPUTATION: 'Low sending IP reputation',
  LOW_DOMAIN_REPUTATION: 'Low domain reputation',
  IP_IN_RBL: 'Sending IP on a public blocklist',
  DOMAIN_IN_RBL: 'Domain on a public blocklist',
  BAD_PTR_RECORD: 'Sending IP has no PTR (reverse DNS) record',
};

export const DELIVERY_ERROR_CLASSES: Record<string, string> = {
  PERMANENT_ERROR: 'rejected',
  TEMPORARY_ERROR: 'deferred',
};

/** "Low sending IP reputation" for a known type, Google's name in words for one added later. */
export function deliveryErrorReason(errorType: string): string {
  return DELIVERY_ERROR_REASONS[errorType] ?? errorType.toLowerCase().replaceAll('_', ' ');
}

/** Each domain's most recent day (days come by domain, then date). */
export function latestDays(days: PostmasterDay[]): PostmasterDay[] {
  const latest = new Map<string, PostmasterDay>();
  for (const day of days) {
    const seen = latest.get(day.domain);
    if (!seen || day.date > seen.date) latest.set(day.domain, day);
  }
  return [...latest.values()].sort((a, b) => a.domain.localeCompare(b.domain));
}
