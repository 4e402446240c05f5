import type { Alert } from '@contracts/alerts';
import { OutboundRequestError, type OutboundGuard } from '../../platform/security/outbound-address';

/*
 * An alert posted to the user's Slack incoming webhook as a Block Kit message. The URL is the user's
 * (and a secret: whoever has it can post to the channel), so the request goes through the outbound
 * guard like any webhook. Slack answers 200 "ok", or an error text such as invalid_payload (400),
 * no_service (404, the webhook was removed) or channel_not_found.
 */

export type SlackAlert = Pick<Alert, 'id' | 'severity' | 'title' | 'message' | 'domain' | 'createdAt'> & {
  /** What happened to it; raised when left out. */
  event?: 'raised' | 'escalated' | 'resolved';
};

/** Why Slack did not take the message, in words for the alert's owner and the logs. */
export class SlackError extends Error {
  constructor(
    message: string,
    /** Slack's own error text (invalid_payload, no_service...) or the guard's reason when Slack was not reached. */
    readonly slackCode: string,
    /** The webhook is gone or refused for good: sending again will not help. */
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'SlackError';
  }
}

const TIMEOUT_MS = 10_000;
/** Slack's answers are a word or a sentence; nothing past this is read. */
const ANSWER_MAX_BYTES = 4096;
// Block Kit limits: a header's text is at most 150 characters, a section's 3000.
const HEADER_MAX = 150;
const SECTION_MAX = 3000;

const SEVERITY_LABEL: Record<SlackAlert['severity'], string> = {
  critical: 'Critical',
  error: 'Error',
  warning: 'Warning',
  info: 'Info',
};
const SEVERITY_EMOJI: Record<SlackAlert['severity'], string> = {
  critical: ':rotating_light:',
  error: ':red_circle:',
  warning: ':warning:',
  info: ':information_source:',
};

const KNOWN_ERRORS: Record<string, { message: string; permanent: boolean }> = {
  invalid_payload: { message: 'Slack refused the message as malformed (invalid_payload)', permanent: false },
  no_service: {
    message: 'The Slack webhook URL no longer works: the webhook was removed or disabled (no_service)',
    permanent: true,
  },
  no_active_hooks: { message: 'The Slack webhook is disabled (no_active_hooks)', permanent: true },
  channel_not_found: {
    message: 'The Slack channel of this webhook no longer exists (channel_not_found)',
    permanent: true,
  },
  channel_is_archived: {
    message: 'The Slack channel of this webhook is archived (channel_is_archived)',
    permanent: true,
  },
  action_prohibited: {
    message: 'A Slack admin has restricted posting to this channel (action_prohibited)',
    permanent: true,
  },
  posting_to_general_channel_denied: {
    message: 'Only admins may post to this Slack channel (posting_to_general_channel_denied)',
    permanent: true,
  },
  invalid_token: { message: 'The Slack webhook URL is no longer valid (invalid_token)', permanent: true },
};

function headline(alert: SlackAlert): string {
  const label = SEVERITY_LABEL[alert.severity];
  if (alert.event === 'resolved') return `:white_check_mark: Resolved: ${alert.title}`;
  if (alert.event === 'escalated')
    return `${SEVERITY_EMOJI[alert.severity]} Escalated to ${label.toLowerCase()}: ${alert.title}`;
  return `${SEVERITY_EMOJI[alert.severity]} ${label}: ${alert.title}`;
}

/** The Block Kit message for an alert: header, message, domain and time, and a "View alert" button. */
export function slackAlertMessage(alert: SlackAlert, appUrl: string) {
  const label = alert.event === 'resolved' ? 'Resolved' : SEVERITY_LABEL[alert.severity];
  const seconds = Math.floor(Date.parse(alert.createdAt) / 1000);
  const context = [
    ...(alert.domain ? [{ type: 'mrkdwn', text: `Domain: *${escapeMrkdwn(alert.domain)}*` }] : []),
    // Slack shows the time in each reader's own time zone; the ISO time is the fallback.
    { type: 'mrkdwn', text: `<!date^${seconds}^{date_short_pretty} at {time}|${alert.createdAt}>` },
  ];
  return {
    // The notification text and what clients without Block Kit show.
    text: `${label}: ${alert.title}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: cut(headline(alert), HEADER_MAX), emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: cut(escapeMrkdwn(alert.message), SECTION_MAX) } },
      { type: 'context', elements: context },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'View alert' },
            url: `${appUrl.replace(/\/$/, '')}/alerts?alertId=${alert.id}`,
          },
        ],
      },
    ],
  };
}

/** Alerts a digest shows one by one; the rest are counted (Block Kit allows 50 blocks). */
const DIGEST_SHOWN = 20;

/** Several alerts in one Block Kit message: a header with the count, a line per alert with its link, a "View alerts" button. */
export function slackDigestMessage(alerts: SlackAlert[], appUrl: string, name: string) {
  const base = appUrl.replace(/\/$/, '');
  const heading = `${alerts.length} alerts${name ? ` (${name})` : ''}`;
  const lines = alerts.slice(0, DIGEST_SHOWN).map((alert) => {
    const seconds = Math.floor(Date.parse(alert.createdAt) / 1000);
    const where = alert.domain ? ` · ${escapeMrkdwn(alert.domain)}` : '';
    return {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: cut(
          `*${escapeMrkdwn(headline(alert))}*\n${escapeMrkdwn(cut(alert.message, 500))}\n<${base}/alerts?alertId=${alert.id}|View alert>${where} · <!date^${seconds}^{date_short_pretty} at {time}|${alert.createdAt}>`,
          SECTION_MAX,
        ),
      },
    };
  });
  const more = alerts.length - DIGEST_SHOWN;
  return {
    text: `InboxPulse: ${heading}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: cut(`InboxPulse: ${heading}`, HEADER_MAX), emoji: true } },
      ...lines,
      ...(more > 0 ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: `and ${more} more` }] }] : []),
      {
        type: 'actions',
        elements: [{ type: 'button', text: { type: 'plain_text', text: 'View alerts' }, url: `${base}/alerts` }],
      },
    ],
  };
}

/** Posts the alert; throws SlackError unless Slack answered "ok". */
export async function postSlackAlert(
  guard: OutboundGuard,
  webhookUrl: string,
  alert: SlackAlert,
  appUrl: string,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  await postSlackMessage(guard, webhookUrl, slackAlertMessage(alert, appUrl), options);
}

/** Posts a Block Kit message (an alert's or a digest's); throws SlackError unless Slack answered "ok". */
export async function postSlackMessage(
  guard: OutboundGuard,
  webhookUrl: string,
  message: object,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  if (!URL.canParse(webhookUrl) || new URL(webhookUrl).protocol !== 'https:') {
    throw new SlackError('The Slack webhook URL must be an https:// URL', 'invalid_url', true);
  }
  let res;
  try {
    res = await guard.fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(message),
      timeoutMs: options.timeoutMs ?? TIMEOUT_MS,
      maxBytes: ANSWER_MAX_BYTES,
    });
  } catch (err) {
    if (!(err instanceof OutboundRequestError)) throw err;
    // The guard's message names addresses: the owner gets the reason in words.
    const words =
      err.reason === 'timeout'
        ? 'did not answer in time'
        : err.reason === 'not_public'
          ? 'points to a private address'
          : 'could not be reached';
    throw new SlackError(`The Slack webhook ${words}`, err.reason, err.reason === 'not_public');
  }
  const answer = res.body.toString('utf8').trim();
  if (res.status === 200 && answer === 'ok') return;
  const known = KNOWN_ERRORS[answer];
  if (known) throw new SlackError(known.message, answer, known.permanent);
  if (res.status === 429) throw new SlackError('Slack is rate limiting this webhook (429)', 'rate_limited', false);
  throw new SlackError(
    `Slack answered HTTP ${res.status}${answer ? `: ${answer.slice(0, 200)}` : ''}`,
    answer.slice(0, 100) || `http_${res.status}`,
    res.status === 404 || res.status === 410,
  );
}

/** Slack's mrkdwn reads &, < and > as markup: a message quoting "<script>" must show as written. */
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
