/**
 * The Postfix integration guide (/integrations/postfix). The main.cf block, the monitoring script
 * and its systemd unit are those of the MTA guide (content/docs/mta-integration.ts); this file adds
 * the guide's own parts: the quick start, the Postfix endpoints, the queue snapshot command, what
 * InboxPulse does with the events, and troubleshooting. server/integration-docs-examples.test.ts runs
 * the script and the commands against the real routes. Plain data and string builders.
 */
import { EXAMPLE_API_KEY } from './api-reference';
import { POSTFIX_LOG_FILE, POSTFIX_SCRIPT_PATH, type EndpointContext } from './mta-integration';

export interface QuickStartStep {
  id: 'configure-logging' | 'install-monitor' | 'start-monitoring';
  title: string;
  text: string;
}

/** Part 2, section 2: configure logging, install monitor, start monitoring. */
export const POSTFIX_QUICK_START: QuickStartStep[] = [
  {
    id: 'configure-logging',
    title: 'Configure logging',
    text: `Add the settings below to /etc/postfix/main.cf and run postfix reload. Postfix 3.4 and later then writes every delivery attempt to ${POSTFIX_LOG_FILE}, with queue ids that are never reused.`,
  },
  {
    id: 'install-monitor',
    title: 'Install monitor',
    text: `Save the monitoring script as ${POSTFIX_SCRIPT_PATH}, make it executable (chmod 755 ${POSTFIX_SCRIPT_PATH}), and save the systemd unit with your webhook token from Settings. The script needs bash, tail, grep and curl.`,
  },
  {
    id: 'start-monitoring',
    title: 'Start monitoring',
    text: 'Run systemctl daemon-reload and systemctl enable --now inboxpulse-postfix-monitor. Delivered, bounced and deferred results appear on the dashboard within seconds of Postfix logging them.',
  },
];

export interface PostfixEndpoint {
  method: 'GET' | 'POST';
  path: string;
  /** What authenticates the call. */
  auth: 'webhook token' | 'API key';
  text: string;
}

/** The Postfix endpoints (part 2, section 7), with what each takes and answers. */
export const POSTFIX_ENDPOINTS: PostfixEndpoint[] = [
  {
    method: 'POST',
    path: '/api/webhooks/postfix',
    auth: 'webhook token',
    text: 'Postfix log lines as text/plain, one per line (or a JSON list of lines), up to 1,000 a request. The monitoring script posts here. Answers how many events were stored, were already stored, were not delivery results, and which lines could not be read.',
  },
  {
    method: 'POST',
    path: '/api/postfix/events',
    auth: 'API key',
    text: 'One log line as JSON: {"event": "delivered", "timestamp": "2026-11-26T09:20:01Z", "log_entry": "<the line>"}. The line decides what is stored.',
  },
  {
    method: 'POST',
    path: '/v1/postfix/logs',
    auth: 'API key',
    text: 'The same batches as /api/webhooks/postfix, for scripts that hold an API key.',
  },
  {
    method: 'POST',
    path: '/v1/postfix/queue',
    auth: 'API key',
    text: 'What postqueue -j prints (one JSON object per message). Answers the messages and recipients per queue and the oldest arrival; each deferred recipient is stored as a deferral.',
  },
  {
    method: 'GET',
    path: '/v1/postfix/analytics',
    auth: 'API key',
    text: 'The Postfix figures of the last ?days=30 (1 to 90): sent, delivered, bounced, deferred and complaint rates, per mailbox provider, bounce causes and the most frequent deferral answers.',
  },
  {
    method: 'GET',
    path: '/v1/postfix/config',
    auth: 'API key',
    text: 'The endpoints for your account, whether a webhook token exists, the batch size, and the main.cf lines shown on this page.',
  },
];

/** Every 5 minutes, the queue as postqueue -j prints it, to /v1/postfix/queue (a cron.d line). */
export function postfixQueueCron(ctx: EndpointContext, apiKey = EXAMPLE_API_KEY): string {
  const url = `${ctx.baseUrl.replace(/\/+$/, '')}/v1/postfix/queue`;
  return `*/5 * * * * root postqueue -j | curl -sS -X POST "${url}" -H "Authorization: Bearer ${apiKey}" -H "Content-Type: application/x-ndjson" --data-binary @- > /dev/null\n`;
}

/** The analytics call, as a reader pastes it. */
export function postfixAnalyticsCurl(ctx: EndpointContext, apiKey = EXAMPLE_API_KEY): string {
  return `curl -sS "${ctx.baseUrl.replace(/\/+$/, '')}/v1/postfix/analytics?days=7" \\\n  -H "Authorization: Bearer ${apiKey}"`;
}

export const POSTFIX_FEATURES = [
  {
    title: 'Delivery tracking',
    items: [
      'Every delivered, bounced and deferred recipient, by queue id, with the receiving server’s answer and its enhanced status code',
      'Hard and soft bounces told apart by the status code',
      'The mailbox provider of each recipient, from its domain’s MX records',
      'Daily figures per mailbox provider and sending IP on the dashboard',
    ],
  },
  {
    title: 'Analysis and alerts',
    items: [
      'Bounces grouped into plain causes: blocklist, policy or DMARC, mailbox full, unknown user, rate limited',
      'Blocklist bounces linked to what Blacklist Monitoring found for the sending IP',
      'Bounce, complaint and delivery rate alerts checked after every batch',
      'email.delivered and email.bounced webhooks to your own systems',
    ],
  },
  {
    title: 'Safe to run',
    items: [
      'A line sent twice is stored once: one event per queue id, recipient and outcome',
      'Batches of up to 500 lines, retried on network errors; what is refused is kept in a file',
      'Only delivery results and sender lines leave the server: no message content, no other log lines',
    ],
  },
] as const;

/** Documentation-only troubleshooting (part 2, section 8): no logs, authentication, queue depth, missing events. */
export const POSTFIX_TROUBLESHOOTING = [
  {
    problem: 'No logs appearing',
    fix: `Check that ${POSTFIX_LOG_FILE} grows when mail is sent. maillog_file needs Postfix 3.4 or later and the postlog service in master.cf (postlog unix-dgram n - n - 1 postlogd, there by default). On older versions set POSTFIX_LOG_FILE=/var/log/mail.log (or /var/log/maillog) in the unit instead. journalctl -u inboxpulse-postfix-monitor shows the script’s messages.`,
  },
  {
    problem: 'API authentication errors (wrong key)',
    fix: `A 401 names what is wrong. The script sends the webhook token (iwt_…), not the API key: copy it again from Settings, Webhook Token, into the unit, then systemctl daemon-reload and restart the service. The /v1/postfix calls take an API key (ipk_…) of a Professional account. Lines refused meanwhile are in /var/lib/inboxpulse/unsent.log: post that file once with the same curl command, and nothing is counted twice.`,
  },
  {
    problem: 'High queue depths',
    fix: 'postqueue -p lists the deferred messages with their reasons; the queue snapshot above posts them every 5 minutes, and Postfix analytics lists the most frequent deferral answers. Many “temporarily deferred” answers from one provider mean it is limiting your rate or your reputation: see the bounce causes and Blacklist Monitoring.',
  },
  {
    problem: 'Missing events',
    fix: 'Only postfix/smtp and postfix/lmtp results are sent: local deliveries (postfix/local, virtual) are not sending. Times without a year or zone (classic syslog) are read as UTC in the current year: run the server in UTC, or use RFC 3339 timestamps (rsyslog). A line the answer lists as rejected says why it could not be read.',
  },
] as const;
