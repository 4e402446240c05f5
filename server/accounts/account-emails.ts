import { mailLayout } from '../platform/mail/mail-layout';
import type { MailMessage } from '../platform/mail/mailer';

type Template = Omit<MailMessage, 'to'>;

export function verifyEmailTemplate(username: string, url: string): Template {
  const lines = [
    `Hi ${username},`,
    'Welcome to InboxPulse. Please confirm your e-mail address so we can send you alerts and reports.',
    'This link is valid for 24 hours.',
  ];
  return {
    subject: 'Verify your InboxPulse e-mail address',
    text: `${lines.join('\n\n')}\n\nVerify your address: ${url}\n`,
    html: mailLayout('Verify your e-mail address', lines, { url, label: 'Verify e-mail address' }),
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
    html: mailLayout('Reset your password', lines, { url, label: 'Reset password' }),
  };
}
