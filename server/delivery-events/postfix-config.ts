import type { z } from 'zod';
import type { PostfixConfig } from '@contracts/delivery-events';

/**
 * GET /v1/postfix/config: where a Postfix server ships its log and what to set in main.cf for it.
 * Long queue ids matter: InboxPulse keeps one event per queue id, recipient and outcome, and the
 * short ids Postfix uses by default are reused after a while.
 */
export function postfixConfig(
  appUrl: string,
  hasWebhookToken: boolean,
  batchMax: number,
): z.infer<typeof PostfixConfig> {
  const base = appUrl.replace(/\/+$/, '');
  return {
    logsEndpoint: `${base}/v1/postfix/logs`,
    webhookEndpoint: `${base}/api/webhooks/postfix`,
    queueEndpoint: `${base}/v1/postfix/queue`,
    hasWebhookToken,
    batchMax,
    mainCf: [
      '# InboxPulse delivery monitoring',
      '# Queue ids that are never reused: each message is counted once by its queue id.',
      'enable_long_queue_ids = yes',
      '# Postfix writes its own log file (Postfix 3.4 and later): one line per delivery attempt.',
      'maillog_file = /var/log/postfix.log',
      '',
    ].join('\n'),
    logFile: '/var/log/postfix.log',
  };
}
