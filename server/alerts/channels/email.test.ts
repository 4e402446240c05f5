import { describe, expect, it } from 'vitest';
import { alertMail, type MailedAlert } from './email';

const HOSTILE: MailedAlert = {
  alertId: 42,
  event: 'raised',
  severity: 'critical',
  title: 'example.com fails its <b>authentication</b> checks\r\nBcc: victim@example.org',
  message: 'DMARC reporter "<script>alert(1)</script>" & friends',
  domain: 'example.com',
  at: '2026-11-26T10:00:00.000Z',
};

describe('alert e-mail', () => {
  it('names one alert in the subject, on one line, and escapes everything in the HTML', () => {
    const mail = alertMail([HOSTILE], { appUrl: 'https://app.inboxpulse.test/', frequency: 'immediate' });
    expect(mail.subject).toBe(
      '[InboxPulse] Critical: example.com fails its <b>authentication</b> checks Bcc: victim@example.org',
    );
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).toContain('DMARC reporter &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot; &amp; friends');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>authentication');
    expect(mail.html).toContain('href="https://app.inboxpulse.test/alerts?alertId=42"');
    expect(mail.text).toContain('Critical: example.com fails its <b>authentication</b> checks');
    expect(mail.text).toContain('Time: 26 Nov 2026, 10:00 UTC');
    expect(mail.text).toContain('View: https://app.inboxpulse.test/alerts?alertId=42');
  });

  it('counts a digest in the subject and words escalations and resolutions', () => {
    const items: MailedAlert[] = [
      { ...HOSTILE, title: 'A' },
      { ...HOSTILE, alertId: 43, title: 'B', event: 'escalated', severity: 'error' },
      { ...HOSTILE, alertId: 44, title: 'C', event: 'resolved' },
    ];
    const daily = alertMail(items, { appUrl: 'https://a.test', frequency: 'daily' });
    expect(daily.subject).toBe('[InboxPulse] 3 alerts (daily digest)');
    expect(daily.text).toMatch(/Critical: A[\s\S]*Escalated to error: B[\s\S]*Resolved: C/);
    expect(daily.text).toContain('https://a.test/alerts?alertId=44');
    expect(alertMail(items.slice(0, 2), { appUrl: 'https://a.test', frequency: 'immediate' }).subject).toBe(
      '[InboxPulse] 2 alerts',
    );
    expect(alertMail([items[2]!], { appUrl: 'https://a.test', frequency: 'hourly' }).subject).toBe(
      '[InboxPulse] Resolved: C',
    );
  });
});
