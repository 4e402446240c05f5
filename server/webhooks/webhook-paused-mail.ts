import { mailLayout } from '../platform/mail/mail-layout';
import type { MailMessage } from '../platform/mail/mailer';

/**
 * The one mail an owner gets when a webhook's deliveries are paused. It names the endpoint by its
 * origin only: a path or query string may carry the receiver's own token.
 */
export function webhookPausedMail(
  webhook: { url: string; description: string | null },
  pause: { until: Date; failures: number; lastError: string },
  settingsUrl: string,
): Omit<MailMessage, 'to'> {
  const endpoint = new URL(webhook.url).origin + (webhook.description ? ` (${webhook.description})` : '');
  const until = `${pause.until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const lines = [
    `Deliveries to your webhook ${endpoint} are paused until ${until} because the endpoint kept failing: ${pause.failures} attempts in a row failed.`,
    `Last error: ${pause.lastError}`,
    'Events that happen meanwhile wait and use none of their attempts. InboxPulse then tries the endpoint with one delivery, and sends the waiting events once it answers with a 2xx status; if it still fails, the pause starts again.',
  ];
  return {
    subject: `Webhook deliveries paused: ${new URL(webhook.url).host}`,
    text: `${lines.join('\n\n')}\n\nSee your webhooks: ${settingsUrl}\n`,
    html: mailLayout('Webhook deliveries paused', lines, { url: settingsUrl, label: 'See your webhooks' }),
  };
}
