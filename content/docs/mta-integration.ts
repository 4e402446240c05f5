/**
 * How each mail transfer agent posts its delivery results to InboxPulse (/mta-integration, the
 * Mail Transfer Agents tab of /integrations, /integrations/postfix). For every MTA: its endpoint,
 * how it authenticates, the native configuration that makes it post there, a command that checks
 * the endpoint and the token without storing anything, and a sample of what the MTA posts.
 * server/integration-docs-examples.test.ts sends every command and sample to the real routes (and
 * runs the Postfix and PowerMTA scripts), so what this file says stays true of the server.
 * Plain data and string builders, no imports.
 */

/** A webhook token as Settings shows it once (contracts/api-keys.ts: tokens start with iwt_). */
export const WEBHOOK_TOKEN_PLACEHOLDER = 'iwt_your_webhook_token';

export type MtaId = 'postfix' | 'powermta' | 'greenarrow' | 'halon' | 'kumo' | 'postal';

/** The page anchor and the order of the guides (the spec's list: Postfix, PowerMTA, GreenArrow, Halon, KumoMTA, Postal). */
export const MTA_IDS: readonly MtaId[] = ['postfix', 'powermta', 'greenarrow', 'halon', 'kumo', 'postal'];

export interface CodeSample {
  /** What the block is: a file name or what it does. */
  label: string;
  language: 'shell' | 'lua' | 'yaml' | 'hsl' | 'conf' | 'ini' | 'csv' | 'json' | 'text';
  code: string;
}

/** Where a reader's configuration points: the app's base URL and their webhook token (or the placeholder). */
export interface EndpointContext {
  baseUrl: string;
  token?: string;
}

/**
 * How an MTA sends the token: `bearer` as an Authorization header; `query` as ?token= in the URL,
 * for MTAs whose webhook settings take a URL and nothing else.
 */
export type TokenPlacement = 'bearer' | 'query';

/** A request the test sends as the MTA would, and what the server must answer. */
export interface MtaSample {
  contentType: string;
  body: string;
  /** Events stored from it (delivered, bounced, deferred, complaints). */
  events: number;
  /** Rows read and not stored (a queue manager line, a reception record). */
  ignored: number;
}

export interface MtaGuide {
  id: MtaId;
  name: string;
  /** The endpoint's path on the app. */
  path: string;
  token: TokenPlacement;
  /** The mechanism, in a phrase ("a log hook", "the accounting file"). */
  mechanism: string;
  /** One paragraph: what the MTA sends and how. */
  summary: string;
  /** How it authenticates, in a sentence. */
  authentication: string;
  /** The setup in order, in words. */
  steps: string[];
  /** The native configuration (and script) that makes the MTA post to the endpoint. */
  config(ctx: EndpointContext): CodeSample[];
  /** A curl command posting a record InboxPulse reads and ignores: it proves the URL and the token and stores nothing. */
  check(ctx: EndpointContext): CodeSample;
  /** What the MTA posts for a delivery, a bounce and a deferral (shown, and sent by the test). */
  sample: MtaSample;
}

const tokenOf = (ctx: EndpointContext) => ctx.token ?? WEBHOOK_TOKEN_PLACEHOLDER;
const base = (ctx: EndpointContext) => ctx.baseUrl.replace(/\/+$/, '');

/** The endpoint URL the MTA is configured with: with ?token= for the MTAs that cannot send a header. */
export function mtaEndpointUrl(guide: Pick<MtaGuide, 'path' | 'token'>, ctx: EndpointContext): string {
  const url = `${base(ctx)}${guide.path}`;
  return guide.token === 'query' ? `${url}?token=${tokenOf(ctx)}` : url;
}

/** The answer to a check command: the record was read, and not a delivery event. */
export const CHECK_ANSWER = { accepted: 0, duplicates: 0, ignored: 1, rejected: [] } as const;

function curlCheck(
  guide: Pick<MtaGuide, 'path' | 'token'>,
  ctx: EndpointContext,
  contentType: string,
  body: string,
): CodeSample {
  const lines = [`curl -sS -X POST "${mtaEndpointUrl(guide, ctx)}"`];
  if (guide.token === 'bearer') lines.push(`  -H "Authorization: Bearer ${tokenOf(ctx)}"`);
  lines.push(`  -H "Content-Type: ${contentType}"`, `  --data-binary '${body}'`);
  return { label: 'Check the endpoint and the token', language: 'shell', code: lines.join(' \\\n') };
}

/** Each MTA's endpoint path and how it sends the token. */
const MTA_GUIDE_ROUTES: Record<MtaId, Pick<MtaGuide, 'path' | 'token'>> = {
  postfix: { path: '/api/webhooks/postfix', token: 'bearer' },
  powermta: { path: '/api/webhooks/powermta', token: 'bearer' },
  greenarrow: { path: '/api/webhooks/greenarrow', token: 'query' },
  halon: { path: '/api/webhooks/halon', token: 'bearer' },
  kumo: { path: '/api/webhooks/kumo', token: 'bearer' },
  postal: { path: '/api/webhooks/postal', token: 'query' },
};

// ---------------------------------------------------------------------------------------------
// Postfix: its own log file, shipped by a small script (the Postfix guide has every step).

/** Part of main.cf: the same text GET /v1/postfix/config answers (the test compares them). */
export const POSTFIX_MAIN_CF = [
  '# InboxPulse delivery monitoring',
  '# Queue ids that are never reused: each message is counted once by its queue id.',
  'enable_long_queue_ids = yes',
  '# Postfix writes its own log file (Postfix 3.4 and later): one line per delivery attempt.',
  'maillog_file = /var/log/postfix.log',
  '',
].join('\n');

export const POSTFIX_LOG_FILE = '/var/log/postfix.log';
export const POSTFIX_SCRIPT_PATH = '/usr/local/bin/inboxpulse-postfix-monitor';

/**
 * The log-monitoring script: follows the Postfix log, keeps the delivery results of postfix/smtp and
 * postfix/lmtp (sent, bounced, deferred) and each message's sender line, and posts them as text in
 * batches of up to 500 lines, or after 5 quiet seconds. What InboxPulse refuses is kept in a file.
 */
export function postfixMonitorScript(ctx: EndpointContext): string {
  return `#!/usr/bin/env bash
# inboxpulse-postfix-monitor: posts Postfix delivery results (sent, bounced, deferred) to InboxPulse.
set -u

ENDPOINT="\${INBOXPULSE_ENDPOINT:-${base(ctx)}/api/webhooks/postfix}"
TOKEN="\${INBOXPULSE_WEBHOOK_TOKEN:?Set INBOXPULSE_WEBHOOK_TOKEN to your webhook token (InboxPulse: Settings, Webhook Token)}"
LOG_FILE="\${POSTFIX_LOG_FILE:-${POSTFIX_LOG_FILE}}"
UNSENT_FILE="\${INBOXPULSE_UNSENT_FILE:-/var/lib/inboxpulse/unsent.log}"
BATCH_LINES=500
QUIET_SECONDS=5

# The delivery results of postfix/smtp and postfix/lmtp, and the queue manager's sender line of each message.
PATTERN='postfix[^ ]*/((smtp|lmtp)\\[[0-9]+\\]: [0-9A-Za-z]+: to=<.*, status=(sent|bounced|deferred)( |$)|qmgr\\[[0-9]+\\]: [0-9A-Za-z]+: from=<)'

send() {
  local answer status
  answer=$(printf '%s\\n' "$@" | curl -sS --max-time 30 --retry 5 --retry-delay 2 --retry-connrefused \\
    -w '\\n%{http_code}' -H "Authorization: Bearer $TOKEN" -H 'Content-Type: text/plain' \\
    --data-binary @- "$ENDPOINT") || true
  status="\${answer##*$'\\n'}"
  if [ "$status" != 200 ]; then
    echo "inboxpulse-postfix-monitor: HTTP \${status:-000} \${answer%$'\\n'*}; $# lines kept in $UNSENT_FILE" >&2
    mkdir -p "$(dirname "$UNSENT_FILE")" && printf '%s\\n' "$@" >> "$UNSENT_FILE"
  fi
}

batch=()
partial=''
while true; do
  if IFS= read -r -t "$QUIET_SECONDS" line; then
    batch+=("$partial$line")
    partial=''
    if [ "\${#batch[@]}" -ge "$BATCH_LINES" ]; then send "\${batch[@]}"; batch=(); fi
  elif [ $? -gt 128 ]; then
    # Quiet for a while: send what has come (a line still arriving waits for its end).
    partial+="$line"
    if [ "\${#batch[@]}" -gt 0 ]; then send "\${batch[@]}"; batch=(); fi
  else
    break
  fi
done < <(tail -n 0 -F "$LOG_FILE" 2>/dev/null | grep --line-buffered -E "$PATTERN")
if [ "\${#batch[@]}" -gt 0 ]; then send "\${batch[@]}"; fi
`;
}

/** The systemd unit that keeps the script running with the token in its environment. */
export function postfixSystemdUnit(ctx: EndpointContext): string {
  return `[Unit]
Description=InboxPulse Postfix delivery monitor
After=postfix.service

[Service]
Environment=INBOXPULSE_WEBHOOK_TOKEN=${tokenOf(ctx)}
ExecStart=${POSTFIX_SCRIPT_PATH}
Restart=always
RestartSec=5

[Install]
WantedBy=multi-user.target
`;
}

/** Three delivery results of one message and its sender line, as Postfix logs them (RFC 3339 times, as rsyslog writes them). */
const POSTFIX_SAMPLE = [
  '2026-11-26T09:20:00.120000+00:00 mx1 postfix/qmgr[1999]: 4TfK2Q1xYzz9: from=<news@mail.example.com>, size=4211, nrcpt=3 (queue active)',
  '2026-11-26T09:20:01.310000+00:00 mx1 postfix/smtp[2120]: 4TfK2Q1xYzz9: to=<ann@gmail.com>, relay=gmail-smtp-in.l.google.com[142.250.102.27]:25, delay=1.2, delays=0.1/0.01/0.5/0.59, dsn=2.0.0, status=sent (250 2.0.0 OK  1764148801 d2e1a72fcca58-7d5f5b2c1b0si1234567pfb.12 - gsmtp)',
  '2026-11-26T09:20:02.210000+00:00 mx1 postfix/smtp[2121]: 4TfK2Q1xYzz9: to=<bob@example.org>, relay=mx.example.org[192.0.2.25]:25, delay=2.1, delays=0.1/0.01/1.5/0.49, dsn=5.1.1, status=bounced (host mx.example.org[192.0.2.25] said: 550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown in virtual mailbox table (in reply to RCPT TO command))',
  '2026-11-26T09:20:03.400000+00:00 mx1 postfix/smtp[2122]: 4TfK2Q1xYzz9: to=<carol@yahoo.com>, relay=mta7.am0.yahoodns.net[67.195.204.72]:25, delay=3.3, delays=0.1/0.01/3.1/0.09, dsn=4.7.0, status=deferred (host mta7.am0.yahoodns.net[67.195.204.72] said: 421 4.7.0 [TSS04] Messages from 203.0.113.10 temporarily deferred due to unexpected volume or user complaints (in reply to MAIL FROM command))',
].join('\n');

// ---------------------------------------------------------------------------------------------
// PowerMTA: its accounting file, rotated into a folder a script posts from.

export const POWERMTA_OUTBOX = '/var/spool/inboxpulse/powermta';
export const POWERMTA_SCRIPT_PATH = '/usr/local/bin/inboxpulse-powermta-ship';

/** Posts each finished accounting file, header line first, 1,000 records a request, then removes it. */
export function powerMtaShipScript(ctx: EndpointContext): string {
  return `#!/usr/bin/env bash
# inboxpulse-powermta-ship: posts PowerMTA's finished accounting files to InboxPulse, then removes them.
set -u

ENDPOINT="\${INBOXPULSE_ENDPOINT:-${base(ctx)}/api/webhooks/powermta}"
TOKEN="\${INBOXPULSE_WEBHOOK_TOKEN:?Set INBOXPULSE_WEBHOOK_TOKEN to your webhook token (InboxPulse: Settings, Webhook Token)}"
OUTBOX="\${PMTA_OUTBOX:-${POWERMTA_OUTBOX}}"

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
for file in "$OUTBOX"/*; do
  [ -f "$file" ] || continue
  header=$(head -n 1 "$file")
  rm -f "$work"/part.*
  tail -n +2 "$file" | split -l 1000 - "$work/part."
  sent=yes
  for part in "$work"/part.*; do
    [ -f "$part" ] || continue
    answer=$({ printf '%s\\n' "$header"; cat "$part"; } | curl -sS --max-time 60 --retry 5 --retry-delay 2 \\
      -w '\\n%{http_code}' -H "Authorization: Bearer $TOKEN" -H 'Content-Type: text/csv' \\
      --data-binary @- "$ENDPOINT") || true
    status="\${answer##*$'\\n'}"
    if [ "$status" != 200 ]; then
      echo "inboxpulse-powermta-ship: $file: HTTP \${status:-000} \${answer%$'\\n'*}" >&2
      sent=no
      break
    fi
  done
  # A file posted again later is not counted twice: InboxPulse keeps one event per message, recipient and outcome.
  if [ "$sent" = yes ]; then rm -f "$file"; fi
done
`;
}

const POWERMTA_CONFIG = `# /etc/pmta/config: an accounting file for InboxPulse, moved to the outbox every minute
<acct-file /var/log/pmta/inboxpulse.csv>
    records d, b, t, f
    move-interval 1m
    move-to ${POWERMTA_OUTBOX}
</acct-file>
`;

const POWERMTA_HEADER =
  'type,timeLogged,timeQueued,orig,rcpt,orcpt,dsnAction,dsnStatus,dsnDiag,dsnMta,bounceCat,srcType,srcMta,dlvType,dlvSourceIp,dlvDestinationIp,dlvEsmtpAvailable,dlvSize,vmta,jobId,envId';
const POWERMTA_SAMPLE = [
  POWERMTA_HEADER,
  'd,2026-11-26 09:20:01+0000,2026-11-26 09:20:00+0000,news@mail.example.com,ann@gmail.com,,relayed,2.0.0 (success),smtp;250 2.0.0 OK  1764148801 d2e1a72fcca58-7d5f5b2c1b0si1234567pfb.12 - gsmtp,gmail-smtp-in.l.google.com (142.250.102.27),,smtp,mail.example.com (203.0.113.5),smtp,203.0.113.10,142.250.102.27,"PIPELINING,8BITMIME,SIZE,STARTTLS",4211,vmta-1,spring-sale,msg-20261126-0001',
  'b,2026-11-26 09:20:02+0000,2026-11-26 09:20:00+0000,news@mail.example.com,bob@example.org,,failed,5.1.1 (bad destination mailbox address),"smtp;550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown",mx.example.org (192.0.2.25),bad-mailbox,smtp,mail.example.com (203.0.113.5),smtp,203.0.113.10,192.0.2.25,"PIPELINING,SIZE",4211,vmta-1,spring-sale,msg-20261126-0001',
  't,2026-11-26 09:20:03+0000,2026-11-26 09:20:00+0000,news@mail.example.com,carol@yahoo.com,,delayed,4.7.0 (other or undefined security status),"smtp;421 4.7.0 [TSS04] Messages from 203.0.113.10 temporarily deferred due to unexpected volume or user complaints",mta7.am0.yahoodns.net (67.195.204.72),policy-related,smtp,mail.example.com (203.0.113.5),smtp,203.0.113.10,67.195.204.72,,4211,vmta-1,spring-sale,msg-20261126-0001',
].join('\r\n');

// ---------------------------------------------------------------------------------------------
// KumoMTA: a log hook (policy-extras.log_hooks) posting each log record as JSON.

function kumoPolicy(ctx: EndpointContext): string {
  return `-- In your KumoMTA policy (init.lua), at the top level, outside any event handler.
local kumo = require 'kumo'
local log_hooks = require 'policy-extras.log_hooks'

local INBOXPULSE_URL = '${base(ctx)}/api/webhooks/kumo'
local INBOXPULSE_TOKEN = '${tokenOf(ctx)}'

log_hooks:new {
  name = 'inboxpulse',
  constructor = function(domain, tenant, campaign)
    local connection = {}
    local client = kumo.http.build_client {}
    function connection:send(message)
      local response = client
        :post(INBOXPULSE_URL)
        :header('Content-Type', 'application/json')
        :header('Authorization', 'Bearer ' .. INBOXPULSE_TOKEN)
        :body(message:get_data())
        :send()
      local disposition = string.format('%d %s: %s', response:status_code(), response:status_reason(), response:text())
      if response:status_is_success() then
        return disposition
      end
      -- A wrong token (401) or a record InboxPulse cannot read (400) does not get better by waiting:
      -- give up on it. Anything else (429, 5xx, no answer) is tried again later.
      if response:status_code() == 401 or response:status_code() == 400 then
        kumo.reject(500, disposition)
      end
      kumo.reject(400, disposition)
    end
    function connection:close()
      client:close()
    end
    return connection
  end,
}
`;
}

const kumoRecord = (record: Record<string, unknown>) =>
  JSON.stringify({
    sender: 'news@mail.example.com',
    queue: 'gmail.com',
    size: 4211,
    created: 1764148800,
    num_attempts: 0,
    egress_pool: 'pool0',
    ...record,
  });
const KUMO_SAMPLE = [
  kumoRecord({
    type: 'Delivery',
    id: '1d98076abbbc11ed940250ebf67f93bd',
    recipient: 'ann@gmail.com',
    site: 'pool0->gmail-smtp-in.l.google.com.',
    response: {
      code: 250,
      enhanced_code: { class: 2, subject: 0, detail: 0 },
      content: 'OK 1764148801 d2e1a72fcca58-7d5f5b2c1b0si1234567pfb.12 - gsmtp',
      command: '.',
    },
    source_address: { address: '203.0.113.10:53210' },
    timestamp: 1764148801,
  }),
  kumoRecord({
    type: 'Bounce',
    id: '2e98076abbbc11ed940250ebf67f93bd',
    queue: 'example.org',
    recipient: 'bob@example.org',
    response: {
      code: 550,
      enhanced_code: { class: 5, subject: 1, detail: 1 },
      content: '<bob@example.org>: Recipient address rejected: User unknown',
      command: 'RCPT TO',
    },
    source_address: { address: '203.0.113.10:53211' },
    timestamp: 1764148802,
    bounce_classification: 'InvalidRecipient',
  }),
  kumoRecord({
    type: 'TransientFailure',
    id: '3f98076abbbc11ed940250ebf67f93bd',
    queue: 'yahoo.com',
    recipient: 'carol@yahoo.com',
    response: {
      code: 421,
      enhanced_code: { class: 4, subject: 7, detail: 0 },
      content: '[TSS04] Messages from 203.0.113.10 temporarily deferred due to unexpected volume or user complaints',
      command: 'MAIL FROM',
    },
    source_address: { address: '203.0.113.10:53212' },
    timestamp: 1764148803,
  }),
].join('\n');

// ---------------------------------------------------------------------------------------------
// Halon: the post-delivery script queues a JSON record per attempt on an http-bulk queue.

function halonPlugin(ctx: EndpointContext): string {
  return `# smtpd.yaml: the http-bulk plugin (package halon-extras-http-bulk) with a queue for InboxPulse
plugins:
  - id: http-bulk
    config:
      queues:
        - id: inboxpulse
          path: /var/run/halon/inboxpulse.jlog
          url: "${base(ctx)}/api/webhooks/halon"
          format: ndjson
          min_items: 500
          max_items: 1000
          max_interval: 10
          headers:
            - "Authorization: Bearer ${tokenOf(ctx)}"
`;
}

const HALON_POST_DELIVERY = `// Post-delivery script: one record per delivery attempt, on the inboxpulse queue.
import { http_bulk } from "extras://http-bulk";

http_bulk("inboxpulse", json_encode([
    "type" => "delivery",
    "time" => round(time() * 1000),
    "message" => $message,
    ...$arguments
]));
`;

const halonMessage = (recipient: string, queue: number) => ({
  id: { transaction: '18c190a3-93f7-47d7-bd6c-1ae87c9d8e52', queue },
  sender: 'news@mail.example.com',
  recipient,
  transportid: 'mailtransport:1',
});
const HALON_SAMPLE = [
  JSON.stringify({
    type: 'delivery',
    time: 1764148801123,
    retry: 0,
    message: halonMessage('ann@gmail.com', 1),
    attempt: {
      result: {
        code: 250,
        enhanced: [2, 0, 0],
        reason: ['OK 1764148801 d2e1a72fcca58-7d5f5b2c1b0si1234567pfb.12 - gsmtp'],
        state: 'EOD',
      },
      connection: { localip: '203.0.113.10', remoteip: '142.250.102.27', remotemx: 'gmail-smtp-in.l.google.com' },
      duration: 0.84,
    },
  }),
  JSON.stringify({
    type: 'delivery',
    time: 1764148802000,
    retry: 0,
    action: 'BOUNCE',
    message: halonMessage('bob@example.org', 2),
    attempt: {
      result: {
        code: 550,
        enhanced: [5, 1, 1],
        reason: ['<bob@example.org>: Recipient address rejected: User unknown'],
        state: 'RCPT',
      },
      connection: { localip: '203.0.113.10', remoteip: '192.0.2.25' },
      duration: 0.2,
    },
  }),
  JSON.stringify({
    type: 'delivery',
    time: 1764148803000,
    retry: 0,
    action: 'QUEUE',
    message: halonMessage('carol@yahoo.com', 3),
    attempt: {
      result: {
        code: 421,
        enhanced: [4, 7, 0],
        reason: ['[TSS04] Messages from 203.0.113.10 temporarily deferred due to unexpected volume or user complaints'],
        state: 'MAIL',
      },
      connection: { localip: '203.0.113.10', remoteip: '67.195.204.72' },
      duration: 0.3,
    },
  }),
].join('\n');

// ---------------------------------------------------------------------------------------------
// GreenArrow: the Event Notification System's HTTP destination (greenarrow.conf).

function greenArrowConfig(ctx: EndpointContext, guide: Pick<MtaGuide, 'path' | 'token'>): string {
  return `# greenarrow.conf: deliver GreenArrow's events to InboxPulse, then run: greenarrow config reload
event_delivery_destination inboxpulse {
  event_delivery_url "${mtaEndpointUrl(guide, ctx)}"
  event_delivery_events all
}
`;
}

const greenArrowAttempt = (status: string, email: string, time: number, message: string) => ({
  id: String(time),
  event_type: 'delivery_attempt',
  event_time: time,
  email,
  listid: 'a1',
  sendid: 'spring-sale-1126',
  channel: 'remote',
  status,
  is_retry: 0,
  msguid: '1764148800.2145.mta1',
  sender: 'bounce-a1@mail.example.com',
  outmtaid_ip: '203.0.113.10',
  message,
});
const GREENARROW_SAMPLE = JSON.stringify([
  greenArrowAttempt(
    'success',
    'ann@gmail.com',
    1764148801,
    '142.250.102.27 accepted message. Remote host said: 250 2.0.0 OK 1764148801 - gsmtp',
  ),
  greenArrowAttempt(
    'failure',
    'bob@example.org',
    1764148802,
    '192.0.2.25 does not like recipient. Remote host said: 550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown',
  ),
  greenArrowAttempt(
    'deferral',
    'carol@yahoo.com',
    1764148803,
    '67.195.204.72 does not like recipient. Remote host said: 421 4.7.0 [TSS04] Messages from 203.0.113.10 temporarily deferred',
  ),
]);

// ---------------------------------------------------------------------------------------------
// Postal: an HTTP webhook of the mail server (its web interface takes a URL only).

const postalMessage = (id: number, to: string) => ({
  id,
  token: `tk${id}`,
  direction: 'outgoing',
  message_id: '5817a64332f44_4ec93ff59e79d154565eb@app34.mail',
  to,
  from: 'news@mail.example.com',
  subject: 'Spring sale',
  timestamp: 1764148800.12,
  spam_status: 'NotSpam',
  tag: null,
});
const POSTAL_SAMPLE = JSON.stringify([
  {
    event: 'MessageSent',
    timestamp: 1764148801.5,
    uuid: 'a3b5c7d9-0000-4000-8000-000000000001',
    payload: {
      status: 'Sent',
      details: 'Message sent by SMTP to gmail-smtp-in.l.google.com (142.250.102.27) (from 203.0.113.10)',
      output: '250 2.0.0 OK 1764148801 ly2si31746747wjb.95 - gsmtp',
      time: 0.22,
      sent_with_ssl: true,
      timestamp: 1764148801.4,
      message: postalMessage(12345, 'ann@gmail.com'),
    },
  },
  {
    event: 'MessageDeliveryFailed',
    timestamp: 1764148802.5,
    uuid: 'a3b5c7d9-0000-4000-8000-000000000002',
    payload: {
      status: 'HardFail',
      details: 'Permanent SMTP delivery error when sending to mx.example.org (192.0.2.25) (from 203.0.113.10)',
      output: '550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown',
      time: 0.3,
      sent_with_ssl: true,
      timestamp: 1764148802.4,
      message: postalMessage(12346, 'bob@example.org'),
    },
  },
  {
    event: 'MessageDelayed',
    timestamp: 1764148803.5,
    uuid: 'a3b5c7d9-0000-4000-8000-000000000003',
    payload: {
      status: 'SoftFail',
      details:
        'Temporary SMTP delivery error when sending to mta6.am0.yahoodns.net (67.195.204.72) (from 203.0.113.10)',
      output:
        '421 4.7.0 [TSS04] Messages from 203.0.113.10 temporarily deferred due to unexpected volume or user complaints',
      time: 0.4,
      sent_with_ssl: false,
      timestamp: 1764148803.4,
      message: postalMessage(12347, 'carol@yahoo.com'),
    },
  },
]);

// ---------------------------------------------------------------------------------------------

export const MTA_GUIDES: MtaGuide[] = [
  {
    id: 'postfix',
    name: 'Postfix',
    ...MTA_GUIDE_ROUTES.postfix,
    mechanism: 'its log, shipped by a script',
    summary:
      'Postfix writes one log line per delivery attempt. A small script on the mail server follows the log and posts the delivery results of postfix/smtp and postfix/lmtp (sent, bounced, deferred), with each message’s sender line, as plain text in batches of up to 500 lines.',
    authentication: 'Authorization: Bearer with your webhook token, read by the script from its environment.',
    steps: [
      `Add the InboxPulse settings to /etc/postfix/main.cf and run postfix reload: Postfix then writes ${POSTFIX_LOG_FILE}.`,
      `Save the monitoring script as ${POSTFIX_SCRIPT_PATH} and make it executable (chmod 755).`,
      'Install the systemd unit with your webhook token, then run systemctl enable --now inboxpulse-postfix-monitor.',
    ],
    config: (ctx) => [
      { label: '/etc/postfix/main.cf', language: 'conf', code: POSTFIX_MAIN_CF },
      { label: POSTFIX_SCRIPT_PATH, language: 'shell', code: postfixMonitorScript(ctx) },
      {
        label: '/etc/systemd/system/inboxpulse-postfix-monitor.service',
        language: 'ini',
        code: postfixSystemdUnit(ctx),
      },
    ],
    check: (ctx) =>
      curlCheck(
        MTA_GUIDE_ROUTES.postfix,
        ctx,
        'text/plain',
        '2026-11-26T09:20:00+00:00 mx1 postfix/qmgr[1999]: 4TfK2Q1xYzz9: from=<news@mail.example.com>, size=4211, nrcpt=1 (queue active)',
      ),
    sample: { contentType: 'text/plain', body: POSTFIX_SAMPLE, events: 3, ignored: 1 },
  },
  {
    id: 'powermta',
    name: 'PowerMTA',
    ...MTA_GUIDE_ROUTES.powermta,
    mechanism: 'its accounting file',
    summary:
      'PowerMTA writes an accounting record for every delivery (d), bounce (b), temporary failure (t) and feedback-loop complaint (f) in a CSV file whose first line names the columns. The file is moved to an outbox every minute, and a script run by cron posts each moved file, header line first, 1,000 records a request.',
    authentication: 'Authorization: Bearer with your webhook token, read by the script from its environment.',
    steps: [
      'Add an accounting file for InboxPulse to /etc/pmta/config and run pmta reload.',
      `Save the shipping script as ${POWERMTA_SCRIPT_PATH} and make it executable (chmod 755).`,
      'Run it every minute from cron, with your webhook token in its environment.',
    ],
    config: (ctx) => [
      { label: '/etc/pmta/config', language: 'conf', code: POWERMTA_CONFIG },
      { label: POWERMTA_SCRIPT_PATH, language: 'shell', code: powerMtaShipScript(ctx) },
      {
        label: '/etc/cron.d/inboxpulse-powermta',
        language: 'text',
        code: `* * * * * root INBOXPULSE_WEBHOOK_TOKEN=${tokenOf(ctx)} ${POWERMTA_SCRIPT_PATH}\n`,
      },
    ],
    check: (ctx) =>
      curlCheck(
        MTA_GUIDE_ROUTES.powermta,
        ctx,
        'text/csv',
        'type,timeLogged,orig,rcpt\nr,2026-11-26 09:20:00+0000,news@mail.example.com,ann@gmail.com',
      ),
    sample: { contentType: 'text/csv', body: POWERMTA_SAMPLE, events: 3, ignored: 0 },
  },
  {
    id: 'greenarrow',
    name: 'GreenArrow',
    ...MTA_GUIDE_ROUTES.greenarrow,
    mechanism: 'the Event Notification System',
    summary:
      'GreenArrow Engine’s event processor delivers its events (delivery attempts, bounces, spam complaints) to an HTTP destination as JSON. InboxPulse reads delivery_attempt, bounce_all and scomp events and ignores the rest (opens, clicks, unsubscribes).',
    authentication: 'The webhook token in the URL (?token=): the destination takes a URL and nothing else.',
    steps: [
      'Add an event delivery destination for InboxPulse to greenarrow.conf, with your webhook token in its URL.',
      'Run greenarrow config reload; greenarrow events status then shows the queue of events for inboxpulse.',
    ],
    config: (ctx) => [
      { label: 'greenarrow.conf', language: 'conf', code: greenArrowConfig(ctx, MTA_GUIDE_ROUTES.greenarrow) },
    ],
    check: (ctx) =>
      curlCheck(
        MTA_GUIDE_ROUTES.greenarrow,
        ctx,
        'application/json',
        '{"event_type":"connection_test","event_time":1764148800}',
      ),
    sample: { contentType: 'application/json', body: GREENARROW_SAMPLE, events: 3, ignored: 0 },
  },
  {
    id: 'halon',
    name: 'Halon',
    ...MTA_GUIDE_ROUTES.halon,
    mechanism: 'the post-delivery script and an http-bulk queue',
    summary:
      'Halon runs its post-delivery script after every delivery attempt. The script puts one JSON record per attempt on a disk-backed http-bulk queue, which posts them as newline-delimited JSON in batches: delivered, bounced (BOUNCE, or DELETE after a permanent failure) and deferred (QUEUE).',
    authentication: 'Authorization: Bearer with your webhook token, as a header of the http-bulk queue.',
    steps: [
      'Install the http-bulk plugin (halon-extras-http-bulk) and add the inboxpulse queue to smtpd.yaml.',
      'Add the lines that queue each delivery attempt to your post-delivery script.',
      'Reload the configuration (halonctl config reload, or the Halon console).',
    ],
    config: (ctx) => [
      { label: 'smtpd.yaml', language: 'yaml', code: halonPlugin(ctx) },
      { label: 'Post-delivery script', language: 'hsl', code: HALON_POST_DELIVERY },
    ],
    check: (ctx) =>
      curlCheck(MTA_GUIDE_ROUTES.halon, ctx, 'application/x-ndjson', '{"type":"connection_test","time":1764148800000}'),
    sample: { contentType: 'application/x-ndjson', body: HALON_SAMPLE, events: 3, ignored: 0 },
  },
  {
    id: 'kumo',
    name: 'KumoMTA',
    ...MTA_GUIDE_ROUTES.kumo,
    mechanism: 'a log hook',
    summary:
      'A KumoMTA log hook receives every log record and posts it to InboxPulse as JSON: Delivery, Bounce, Expiration and OOB become deliveries and bounces, TransientFailure a deferral and Feedback a complaint; Reception and the other records are read and ignored. KumoMTA queues the records and retries them when InboxPulse cannot be reached.',
    authentication: 'Authorization: Bearer with your webhook token, set by the hook on each request.',
    steps: [
      'Add the InboxPulse log hook to your policy (init.lua), with your webhook token.',
      'Restart kumod (systemctl restart kumomta).',
    ],
    config: (ctx) => [{ label: 'init.lua', language: 'lua', code: kumoPolicy(ctx) }],
    check: (ctx) =>
      curlCheck(
        MTA_GUIDE_ROUTES.kumo,
        ctx,
        'application/json',
        '{"type":"Reception","id":"0123456789abcdef0123456789abcdef","recipient":"ann@gmail.com","timestamp":1764148800}',
      ),
    sample: { contentType: 'application/x-ndjson', body: KUMO_SAMPLE, events: 3, ignored: 0 },
  },
  {
    id: 'postal',
    name: 'Postal',
    ...MTA_GUIDE_ROUTES.postal,
    mechanism: 'an HTTP webhook',
    summary:
      'Postal posts a webhook for each message event of a mail server: MessageSent becomes a delivery, MessageDeliveryFailed and MessageBounced bounces, MessageDelayed a deferral. Held messages, clicks and send-limit warnings are read and ignored.',
    authentication: 'The webhook token in the URL (?token=): Postal’s webhooks take a URL and nothing else.',
    steps: [
      'In Postal’s web interface, open your mail server, then Webhooks, and click Add a webhook.',
      'Paste the endpoint URL, with your webhook token, and choose MessageSent, MessageDelayed, MessageDeliveryFailed and MessageBounced, or all events.',
    ],
    config: (ctx) => [
      { label: 'Webhook URL', language: 'text', code: `${mtaEndpointUrl(MTA_GUIDE_ROUTES.postal, ctx)}\n` },
    ],
    check: (ctx) =>
      curlCheck(
        MTA_GUIDE_ROUTES.postal,
        ctx,
        'application/json',
        '{"event":"MessageHeld","timestamp":1764148800,"uuid":"a3b5c7d9-0000-4000-8000-000000000000","payload":{}}',
      ),
    sample: { contentType: 'application/json', body: POSTAL_SAMPLE, events: 3, ignored: 0 },
  },
];

export function mtaGuide(id: MtaId): MtaGuide {
  return MTA_GUIDES.find((guide) => guide.id === id)!;
}

/** What InboxPulse does with the events, for the benefits card and the guide's overview. */
export const MTA_BENEFITS = [
  {
    title: 'Real-time analytics',
    text: 'Deliveries, bounces (hard and soft, with the enhanced status code), deferrals and complaints per day, mailbox provider and sending IP, on the dashboard as they arrive.',
  },
  {
    title: 'Smart alerts',
    text: 'Bounce, complaint and delivery rates are checked against your alert thresholds after every batch.',
  },
  {
    title: 'Reputation monitoring',
    text: 'Bounces are grouped into plain causes (blocklist, policy, mailbox full, unknown user, rate limited) and linked to what the blocklist and DNS checks found.',
  },
] as const;

/** Answers every MTA endpoint gives, for the guide's troubleshooting section. */
export const MTA_TROUBLESHOOTING = [
  {
    problem: '401 Missing webhook token or Invalid webhook token',
    fix: 'Send the current token from Settings, Webhook Token: as Authorization: Bearer, the X-Webhook-Token header, or ?token= in the URL. Regenerating the token stops the old one at once. An API key (ipk_) is refused here.',
  },
  {
    problem: '429 Too many requests with this wrong webhook token',
    fix: 'The same wrong token came 60 times in 10 minutes from this address: it is answered 429 until the Retry-After seconds pass. Put the current token in the MTA’s configuration; a valid token from the same address is always accepted.',
  },
  {
    problem: '429 Your Free plan allows 10,000 emails per month and … were counted this month',
    fix: 'The e-mails counted this month (UTC), your ESP plugins’ imports included, reached your plan’s allowance, so the request’s events were not stored; Integrations lists what was refused. Upgrade on the pricing page to store them, or send them again once the count starts over on the first of next month (the Retry-After seconds). The check command stores nothing and is always answered.',
  },
  {
    problem: '400 No row of the batch could be read',
    fix: 'The body is not in the MTA’s format: check the Content-Type (text/plain for Postfix lines, text/csv for PowerMTA with its header line first, JSON or NDJSON for the others). The message names the first rows and why.',
  },
  {
    problem: '413 A batch holds at most 1,000 events',
    fix: 'Send at most 1,000 rows (and 5 MB) a request; the scripts and queues above stay below that.',
  },
  {
    problem: 'rejected rows in a 200 answer',
    fix: 'The other rows were stored; each rejected row is named by its position in the batch with the reason (no recipient, a time that cannot be read).',
  },
] as const;
