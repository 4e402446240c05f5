import type { InboxTestReport } from '@contracts/inbox-tests';

/**
 * The ESP a test message went out through, told by the domains that vouch for it: the DKIM
 * signatures' d= domains (ESPs add their own signature beside the customer's), the envelope sender
 * and the HELO name. Only names we can tell apart with certainty; otherwise null.
 */
const PROVIDERS: { name: string; domains: string[] }[] = [
  { name: 'SendGrid', domains: ['sendgrid.net', 'sendgrid.com'] },
  { name: 'Amazon SES', domains: ['amazonses.com'] },
  { name: 'Mailgun', domains: ['mailgun.org', 'mailgun.net', 'mailgun.info'] },
  { name: 'Mailchimp', domains: ['mcsv.net', 'mcdlv.net', 'mailchimpapp.net', 'mandrillapp.com'] },
  { name: 'SparkPost', domains: ['sparkpostmail.com', 'sparkpostmail1.com'] },
  { name: 'Postmark', domains: ['pm.mtasv.net', 'mtasv.net', 'postmarkapp.com'] },
  { name: 'Brevo', domains: ['sendinblue.com', 'brevo.com', 'sender-sib.com'] },
  { name: 'Klaviyo', domains: ['klaviyomail.com', 'klaviyo.com'] },
  { name: 'SMTP2GO', domains: ['smtp2go.com', 'smtp2go.net'] },
  { name: 'Constant Contact', domains: ['constantcontact.com', 'ccsend.com'] },
  { name: 'HubSpot', domains: ['hubspotemail.net', 'hubspotstarter.net', 'hs-email.net'] },
  { name: 'Google Workspace', domains: ['google.com', 'gmail.com', 'googlemail.com'] },
  { name: 'Microsoft 365', domains: ['outlook.com', 'protection.outlook.com', 'onmicrosoft.com'] },
];

const endsWithDomain = (name: string, domain: string) => name === domain || name.endsWith(`.${domain}`);

export function detectSendingProvider(report: Pick<InboxTestReport, 'authentication' | 'envelope'>): string | null {
  const names = [
    ...(report.authentication?.dkim.map((d) => d.domain) ?? []),
    report.envelope?.mailFrom.split('@')[1] ?? '',
    report.envelope?.helo ?? '',
  ]
    .map((n) => n.toLowerCase().replace(/\.$/, ''))
    .filter(Boolean);
  for (const provider of PROVIDERS)
    if (names.some((n) => provider.domains.some((d) => endsWithDomain(n, d)))) return provider.name;
  return null;
}
