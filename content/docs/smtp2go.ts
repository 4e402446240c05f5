/**
 * The SMTP2GO integration page (/integrations/smtp2go): the sections part 2, section 2 lists, with
 * what InboxPulse really does with an SMTP2GO account (the plugin of content/integrations.ts and
 * docs/decisions/028). The API examples call SMTP2GO's own API (v3: POST with a JSON body, the key
 * in the X-Smtp2go-Api-Key header); the webhook step posts to InboxPulse's SMTP2GO endpoint.
 * server/integration-docs-examples.test.ts runs the examples (against a stand-in of SMTP2GO's API)
 * and the webhook against the real route. Plain data and string builders.
 */
import { WEBHOOK_TOKEN_PLACEHOLDER, type EndpointContext } from './mta-integration';

/** SMTP2GO's API base (the global endpoint picks the nearest region). */
export const SMTP2GO_API_BASE = 'https://api.smtp2go.com/v3';
/** The account label in the webhook URL: which of your SMTP2GO accounts posts there. */
export const SMTP2GO_WEBHOOK_ACCOUNT = 'main';
/** Activity search's page size in the examples. */
export const SMTP2GO_ACTIVITY_LIMIT = 100;

export const SMTP2GO_OVERVIEW_TILES = [
  {
    id: 'relay',
    title: 'SMTP relay',
    text: 'Keep sending through SMTP2GO’s relay and API as you do today: InboxPulse only reads your statistics, it never sends mail for you.',
  },
  {
    id: 'analytics',
    title: 'Analytics',
    text: 'Daily sent emails, bounces, rejects, spam complaints, opens and clicks from SMTP2GO’s email history, on the dashboard beside your other providers.',
  },
  {
    id: 'reputation',
    title: 'Reputation',
    text: 'Bounce and complaint rates checked against your alert thresholds, next to the blocklist, DNS and inbox placement checks of your domains.',
  },
] as const;

export const SMTP2GO_BENEFITS = [
  'One view of every provider you send through: SMTP2GO figures sit beside your other ESPs and MTAs',
  'Alerts when bounce or complaint rates pass your thresholds, by e-mail, Slack, SMS or webhook',
  'An alert when the API key stops working or SMTP2GO keeps refusing the sync',
  'The key is stored encrypted and never shown again; only its last characters are',
  'Per-message delivery results in real time when you add the optional webhook',
] as const;

export interface SetupStep {
  id: 'api-key' | 'install' | 'webhook';
  title: string;
  paragraphs: string[];
}

export const SMTP2GO_SETUP: SetupStep[] = [
  {
    id: 'api-key',
    title: 'Get an API key',
    paragraphs: [
      'In SMTP2GO, open Sending, then API Keys, and click Add API Key.',
      'Give the key the Read Stats and Read Activity permissions; it needs nothing else. Keys start with "api-". Copy it: SMTP2GO shows it in full once.',
    ],
  },
  {
    id: 'install',
    title: 'Install it in Integrations',
    paragraphs: [
      'In InboxPulse, open Integrations, tab Email Service Providers (the ESP plugins), and click Install on the SMTP2GO card.',
      'Paste the key, optionally the SMTP username you send with, and click Test Connection: InboxPulse asks SMTP2GO for your email cycle with the key and shows SMTP2GO’s own answer.',
      'Click Install. The first sync reads the last 7 days at once; syncs then run every hour (Sync now runs one at any time).',
    ],
  },
  {
    id: 'webhook',
    title: 'Optional: add the webhook',
    paragraphs: [
      'For each message’s result as it happens, in SMTP2GO open Settings, then Webhooks, and add a webhook with the URL below (your webhook token from InboxPulse Settings is in it).',
      'Choose the Delivered, Bounce and Spam events. SMTP2GO may post them as form fields or as JSON: both are read. Opens, clicks and unsubscribes are read and ignored.',
    ],
  },
];

/** The webhook URL SMTP2GO posts to: the account label names which SMTP2GO account it is. */
export function smtp2goWebhookUrl(ctx: EndpointContext, account = SMTP2GO_WEBHOOK_ACCOUNT): string {
  return `${ctx.baseUrl.replace(/\/+$/, '')}/api/webhooks/smtp2go/${account}?token=${ctx.token ?? WEBHOOK_TOKEN_PLACEHOLDER}`;
}

/** What SMTP2GO posts for a delivered message, as form fields (the test sends it to the real route). */
export const SMTP2GO_WEBHOOK_SAMPLE =
  'event=delivered&time=2026-11-26T09%3A20%3A01Z&sendtime=2026-11-26T09%3A20%3A00Z&sender=news%40mail.example.com&from=news%40mail.example.com&rcpt=ann%40gmail.com&email_id=1rPqRs-4TfK2Q-Ab&subject=Spring+sale&message=250+2.0.0+OK+1764148801+-+gsmtp';

export type ExampleLanguage = 'shell' | 'node' | 'python';
export const EXAMPLE_LANGUAGES: readonly ExampleLanguage[] = ['shell', 'node', 'python'];
export const EXAMPLE_LABELS: Record<ExampleLanguage, string> = {
  shell: 'Shell (curl)',
  node: 'Node.js',
  python: 'Python',
};

/**
 * The API examples: the account's email summary (Read Stats) and its latest activity (Read Activity),
 * the two permissions the key needs. The key comes from the SMTP2GO_API_KEY environment variable.
 */
export function smtp2goApiExample(language: ExampleLanguage, apiBase = SMTP2GO_API_BASE): string {
  if (language === 'shell') {
    return `# SMTP2GO_API_KEY holds your api- key.
curl -sS -X POST "${apiBase}/stats/email_summary" \\
  -H "Content-Type: application/json" \\
  -H "X-Smtp2go-Api-Key: $SMTP2GO_API_KEY" \\
  -d '{}'

curl -sS -X POST "${apiBase}/activity/search" \\
  -H "Content-Type: application/json" \\
  -H "X-Smtp2go-Api-Key: $SMTP2GO_API_KEY" \\
  -d '{"limit": ${SMTP2GO_ACTIVITY_LIMIT}}'
`;
  }
  if (language === 'node') {
    return `// Node.js 18+, no dependencies. SMTP2GO_API_KEY holds your api- key. Run as an ES module (.mjs).
const API = '${apiBase}';

async function smtp2go(path, body) {
  const res = await fetch(\`\${API}\${path}\`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Smtp2go-Api-Key': process.env.SMTP2GO_API_KEY },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(\`\${res.status}: \${answer.data?.error ?? JSON.stringify(answer)}\`);
  return answer.data;
}

console.log('Email summary:', JSON.stringify(await smtp2go('/stats/email_summary', {}), null, 2));
console.log('Latest activity:', JSON.stringify(await smtp2go('/activity/search', { limit: ${SMTP2GO_ACTIVITY_LIMIT} }), null, 2));
`;
  }
  return `# Python 3, standard library only. SMTP2GO_API_KEY holds your api- key.
import json
import os
import urllib.error
import urllib.request

API = "${apiBase}"


def smtp2go(path, body):
    request = urllib.request.Request(
        API + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "X-Smtp2go-Api-Key": os.environ["SMTP2GO_API_KEY"]},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)["data"]
    except urllib.error.HTTPError as error:
        raise SystemExit(f"{error.code}: {error.read().decode()}")


print("Email summary:", json.dumps(smtp2go("/stats/email_summary", {}), indent=2))
print("Latest activity:", json.dumps(smtp2go("/activity/search", {"limit": ${SMTP2GO_ACTIVITY_LIMIT}}), indent=2))
`;
}

/** Part 2, section 2: the monitoring features, each as InboxPulse does it. */
export const SMTP2GO_FEATURES = [
  {
    id: 'delivery',
    title: 'Delivery metrics',
    text: 'Emails sent, delivered, bounced and rejected per day; the delivery rate over 30 days on the dashboard’s ESP Data view.',
  },
  { id: 'engagement', title: 'Engagement tracking', text: 'Opens and clicks per day, from the same history.' },
  {
    id: 'reputation',
    title: 'Reputation management',
    text: 'Spam complaints and bounce rates beside your domains’ SPF, DKIM and DMARC checks and your IP addresses’ blocklist listings.',
  },
  {
    id: 'alerts',
    title: 'Alert configuration',
    text: 'Bounce, complaint and delivery rate thresholds in Alerts, Settings, sent by e-mail, Slack, SMS or webhook.',
  },
  {
    id: 'account',
    title: 'Account monitoring',
    text: 'The last sync, its error in SMTP2GO’s words, and an alert after three failed syncs in a row (a revoked key, a missing permission).',
  },
  {
    id: 'options',
    title: 'Integration options',
    text: 'The hourly statistics sync with an API key, the real-time webhook per message, or both: a day synced from the statistics is never counted twice.',
  },
] as const;

/** Documentation-only troubleshooting (part 2, section 8): authentication failed, data sync issues, missing metrics. */
export const SMTP2GO_TROUBLESHOOTING = [
  {
    id: 'auth',
    problem: 'API key authentication failed',
    fix: 'Test Connection shows SMTP2GO’s own answer. An invalid or revoked key: create a new one under Sending, API Keys. A missing permission: edit the key and tick Read Stats and Read Activity. Then change the key in Integrations (Manage, then Save): it is tested before it is kept.',
  },
  {
    id: 'sync',
    problem: 'Data sync issues',
    fix: 'Manage on the SMTP2GO card shows the last sync and the last error. After a failure the next scheduled sync waits 1, 2, 4 hours and more; Sync now runs one at once. When SMTP2GO asks InboxPulse to slow down, the sync waits as long as it says.',
  },
  {
    id: 'metrics',
    problem: 'Missing metrics',
    fix: 'Statistics cover whole days in UTC and appear after the first sync; a day with nothing sent has no figures. SMTP2GO’s history does not tell hard from soft bounces, and rejected messages count as not delivered. One SMTP2GO account is synced per InboxPulse account; another SMTP2GO account can still post its webhook, with its own account label in the URL.',
  },
] as const;

export const SMTP2GO_DOCS_URL = 'https://developers.smtp2go.com/docs/getting-started';
