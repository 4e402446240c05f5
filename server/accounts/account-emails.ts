import type { MailMessage } from '../platform/mail/mailer';

type Template = Omit<MailMessage, 'to'>;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(heading: string, paragraphs: string[], link: { url: string; label: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  return `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(heading)}</h1>${body}
<p><a href="${escapeHtml(link.url)}" style="display:inline-block;background:#2563eb;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>
<p style="font-size:12px;color:#64748b">If the button does not work, open this address: ${escapeHtml(link.url)}</p>
</body></html>`;
}

export function verifyEmailTemplate(username: string, url: string): Template {
  const lines = [
    `Hi ${username},`,
    'Welcome to InboxPulse. Please confirm your e-mail address so we can send you alerts and reports.',
    'This link is valid for 24 hours.',
  ];
  return {
    subject: 'Verify your InboxPulse e-mail address',
    text: `${lines.join('\n\n')}\n\nVerify your address: ${url}\n`,
    html: layout('Verify your e-mail address', lines, { url, label: 'Verify e-mail address' }),
  };
}

export function resetPasswordTemplate(username: string, url: string): Template {
  const lines = [
    `Hi ${username},`,
    'Someone asked to reset the password of your InboxPulse account. If it was you, choose a new password with the link below.',
    'The link is valid for 1 hour and works once. If you did not ask for it, ignore this e-mail: your password stays as it is.',
  ];
  return {
    subject: 'Reset your InboxPulse password',
    text: `${lines.join('\n\n')}\n\nReset your password: ${url}\n`,
    html: layout('Reset your password', lines, { url, label: 'Reset password' }),
  };
}
