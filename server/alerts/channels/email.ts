import type { AlertFrequency } from '@contracts/alert-settings';

/*
 * Alert e-mail: one alert, or a digest of several, as HTML and plain text. Everything an alert says
 * comes from data someone else wrote (a DMARC reporter's name, a DNS record, a rule's name): it is
 * escaped in the HTML and kept off the subject's line breaks.
 */

export interface MailedAlert {
  alertId: number;
  event: 'raised' | 'escalated' | 'resolved';
  severity: string;
  title: string;
  message: string;
  domain: string | null;
  /** ISO time it happened. */
  at: string;
}

export interface AlertMail {
  subject: string;
  text: string;
  html: string;
}

const SEVERITY_LABEL: Record<string, string> = {
  critical: 'Critical',
  error: 'Error',
  warning: 'Warning',
  info: 'Info',
};
const SEVERITY_COLOUR: Record<string, string> = {
  critical: '#b91c1c',
  error: '#c2410c',
  warning: '#a16207',
  info: '#1d4ed8',
};
const DIGEST_NAME: Record<AlertFrequency, string> = {
  immediate: '',
  hourly: 'hourly digest',
  daily: 'daily digest',
  weekly: 'weekly summary',
};
const SUBJECT_TITLE_MAX = 150;

export function severityLabel(severity: string): string {
  return SEVERITY_LABEL[severity] ?? severity;
}

/** "Critical", "Escalated to critical", "Resolved": what happened, in the words a line starts with. */
export function eventLabel(item: Pick<MailedAlert, 'event' | 'severity'>): string {
  if (item.event === 'resolved') return 'Resolved';
  if (item.event === 'escalated') return `Escalated to ${severityLabel(item.severity).toLowerCase()}`;
  return severityLabel(item.severity);
}

export function alertLink(appUrl: string, alertId: number): string {
  return `${appUrl.replace(/\/$/, '')}/alerts?alertId=${alertId}`;
}

/** "26 Nov 2026, 10:00 UTC". */
export function mailTime(iso: string): string {
  const at = new Date(iso);
  const date = at.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const time = at.toLocaleTimeString('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  });
  return `${date}, ${time} UTC`;
}

/** The subject: the alert itself when there is one, else the count and the digest's name. */
export function alertMailSubject(items: MailedAlert[], frequency: AlertFrequency): string {
  if (items.length === 1) {
    const [item] = items;
    return `[InboxPulse] ${eventLabel(item!)}: ${oneLine(item!.title, SUBJECT_TITLE_MAX)}`;
  }
  const name = DIGEST_NAME[frequency];
  return `[InboxPulse] ${items.length} alerts${name ? ` (${name})` : ''}`;
}

export function alertMail(items: MailedAlert[], options: { appUrl: string; frequency: AlertFrequency }): AlertMail {
  const subject = alertMailSubject(items, options.frequency);
  const name = DIGEST_NAME[options.frequency];
  const intro =
    items.length === 1
      ? items[0]!.event === 'resolved'
        ? 'An alert’s condition has recovered.'
        : 'InboxPulse raised an alert for your account.'
      : `${items.length} alert updates${name ? ` in your ${name}` : ''}.`;
  const settings = `${options.appUrl.replace(/\/$/, '')}/alerts`;

  const textBlocks = items.map((item) =>
    [
      `${eventLabel(item)}: ${oneLine(item.title, 500)}`,
      item.message,
      ...(item.domain ? [`Domain: ${item.domain}`] : []),
      `Time: ${mailTime(item.at)}`,
      `View: ${alertLink(options.appUrl, item.alertId)}`,
    ].join('\n'),
  );
  const text = [
    intro,
    '',
    textBlocks.join('\n\n'),
    '',
    `Change which alerts you receive and how often: ${settings}`,
    '',
  ].join('\n');

  const htmlBlocks = items
    .map((item) => {
      const colour = item.event === 'resolved' ? '#15803d' : (SEVERITY_COLOUR[item.severity] ?? '#374151');
      const link = alertLink(options.appUrl, item.alertId);
      return `<tr><td style="padding:12px 0;border-top:1px solid #e5e7eb">
<p style="margin:0 0 4px"><span style="display:inline-block;padding:2px 8px;border-radius:9999px;background:${colour};color:#fff;font-size:12px;font-weight:600">${escapeHtml(eventLabel(item))}</span></p>
<p style="margin:0 0 4px;font-size:16px;font-weight:600">${escapeHtml(item.title)}</p>
<p style="margin:0 0 4px;white-space:pre-line">${escapeHtml(item.message)}</p>
<p style="margin:0 0 8px;color:#6b7280;font-size:13px">${item.domain ? `${escapeHtml(item.domain)} · ` : ''}${escapeHtml(mailTime(item.at))}</p>
<p style="margin:0"><a href="${escapeHtml(link)}" style="color:#2563eb">View alert</a></p>
</td></tr>`;
    })
    .join('\n');
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#111827;margin:0;padding:24px">
<table role="presentation" style="max-width:600px;width:100%;border-collapse:collapse">
<tr><td style="padding-bottom:12px"><strong>InboxPulse</strong><p style="margin:8px 0 0">${escapeHtml(intro)}</p></td></tr>
${htmlBlocks}
<tr><td style="padding-top:16px;border-top:1px solid #e5e7eb;color:#6b7280;font-size:12px">Change which alerts you receive and how often in <a href="${escapeHtml(settings)}" style="color:#6b7280">Alert Settings</a>.</td></tr>
</table>
</body></html>
`;
  return { subject, text, html };
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** One line (no CR or LF to break a header with), cut to `max` characters. */
function oneLine(text: string, max: number): string {
  const chars = Array.from(text.replace(/[\r\n\t]+/g, ' ').trim());
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}
