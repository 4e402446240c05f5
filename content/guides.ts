import { COMPANY } from './company';
import { CLAIMS } from './features';

/**
 * Short how-to texts that the chat assistant can quote (and the server can index). They describe
 * the product as the specification does; keep them factual and plain text ('- ' lines for lists).
 */
export interface Guide {
  id: string;
  title: string;
  text: string;
}

export const GUIDES: Guide[] = [
  {
    id: 'getting-started',
    title: 'Getting started',
    text: [
      `Getting started takes three steps and under ${CLAIMS.setupMinutes} minutes:`,
      '- Add your sending domain and verify it with a DNS record.',
      '- Connect your email service provider (ESP) on the Integrations page.',
      '- Run an inbox placement test.',
      'Create a free account at /register; the Free plan needs no credit card.',
    ].join('\n'),
  },
  {
    id: 'add-domain',
    title: 'How to add and verify a domain',
    text: [
      'Open Domains and click Add Domain, then enter your sending domain (for example example.com).',
      'To prove you own it, publish a TXT record named _inboxpulse.<your domain> (for example _inboxpulse.example.com) with the verification value shown for the domain, then click Verify DNS.',
      'The domain page also suggests records for email authentication:',
      '- SPF: a TXT record on the domain that lists the servers allowed to send for it.',
      '- DKIM: a TXT record named default._domainkey (or the selector your provider gives you).',
      '- DMARC: a TXT record named _dmarc, suggested policy p=quarantine (options none, quarantine, reject).',
      'DNS changes usually take 5-15 minutes to propagate before verification succeeds.',
    ].join('\n'),
  },
  {
    id: 'inbox-test',
    title: 'How to run an inbox placement test',
    text: [
      'You need at least one verified domain ("Add and verify at least one domain to start testing").',
      '- Open Inbox Tests and click Create Test.',
      '- Copy the test address and the subject prefix. Put the test id in the subject as "[TEST-{id}] Your Subject".',
      '- Send one real email from your usual sending platform to the test address and the seed addresses listed with the test.',
      '- Results usually arrive within 5-10 minutes: inbox, spam and missing rates by provider, region, country and mailbox system.',
      `The seed network spans ${CLAIMS.regions} regions: North America, Europe, Asia Pacific, Latin America, and Africa & Middle East.`,
    ].join('\n'),
  },
  {
    id: 'dmarc-reports',
    title: 'How DMARC reports work',
    text: [
      'Mailbox providers send aggregate DMARC reports to the address in the rua= tag of your DMARC record.',
      'Point rua= at the InboxPulse report address shown for your domain, for example: v=DMARC1; p=quarantine; rua=mailto:<report address>',
      'InboxPulse reads the reports and shows which sources send mail as your domain and whether SPF and DKIM pass for them.',
      'Start with p=none to observe, then move to quarantine or reject once all legitimate sources pass.',
    ].join('\n'),
  },
  {
    id: 'connect-esp',
    title: 'How to connect an email service provider',
    text: [
      'Open Integrations and choose the Email Service Providers tab.',
      '- Pick your provider and click Install.',
      '- Step 1: create an API key in your provider account (read-only statistics permissions are enough; for SMTP2GO choose Read Stats and Read Activity).',
      '- Step 2: paste the API key, click Test Connection, then save.',
      'Supported: SendGrid, Mailchimp, Klaviyo, Mailgun, SMTP2GO, Constant Contact, HubSpot, Brevo, ActiveCampaign, SparkPost, Omnisend, Shopify Email and GetResponse. Google Postmaster Tools is available under Analytics & Tools.',
      'Provider credentials are stored encrypted.',
    ].join('\n'),
  },
  {
    id: 'mta-webhooks',
    title: 'How to connect a mail transfer agent (MTA)',
    text: [
      'Postfix, PowerMTA, GreenArrow, Halon, KumoMTA and Postal report their delivery events to InboxPulse through webhooks.',
      '- Generate a webhook token in Settings.',
      '- Configure your MTA (or a small log-monitoring script) to post delivered, bounced and deferred events with that token.',
      'Step-by-step instructions are in the MTA integration guide (/mta-integration) and the Postfix guide (/integrations/postfix).',
    ].join('\n'),
  },
  {
    id: 'alerts',
    title: 'How alerts work',
    text: [
      `InboxPulse raises alerts in ${CLAIMS.alertCategories} categories, grouped as critical, reputation and performance, for example authentication failures, DNS changes, blacklist listings, reputation declines and deliverability drops.`,
      '- Every plan receives alerts by email.',
      '- The Professional plan adds Slack, SMS and webhook channels.',
      '- In Alerts > Alert Settings you choose the alert types, the thresholds (defaults: inbox rate 90%, bounce rate 5%, spam rate 0.3%, reputation score 70) and the frequency: immediate, hourly, daily or a weekly summary.',
      'Open alerts appear under Active Alerts; read ones move to Alert History.',
    ].join('\n'),
  },
  {
    id: 'blacklists',
    title: 'Reputation and blacklist monitoring',
    text: [
      'Add IP addresses on the Reputation page, one at a time or in bulk by CIDR block (bulk import is a Professional feature).',
      `Each IP is checked against ${CLAIMS.blacklistsMonitoring} blacklist providers every ${CLAIMS.monitoringIntervalHours} hours.`,
      'A listing on fewer than 3 blacklists is a Warning; 3 or more is Critical.',
    ].join('\n'),
  },
  {
    id: 'api',
    title: 'The REST API',
    text: [
      'The REST API is included in the Professional plan.',
      '- Create an API key in Settings; it is shown in full only once.',
      '- Send it as a bearer token: Authorization: Bearer <your API key>.',
      '- Endpoints cover domains, email metrics, inbox tests, IP blacklist monitoring, DMARC monitoring, alerts and webhooks.',
      'SDK pointers exist for Node.js, Python, PHP and Ruby. Full documentation: /api-docs; webhooks: /webhook-docs.',
    ].join('\n'),
  },
  {
    id: 'retention',
    title: 'Data retention',
    text: 'Monitoring data is kept for 7 days on the Free plan and 90 days on the Professional plan. Custom Enterprise plans can agree a custom retention period.',
  },
  {
    id: 'plans',
    title: 'Plans and billing',
    text: [
      '- Free: $0 forever, no credit card. 1 domain, basic monitoring, email alerts only, email support, 7-day retention, basic ESP/MTA integrations.',
      '- Professional: $49/month. Unlimited domains, all alert channels (Slack, SMS), real-time monitoring, advanced analytics, API access, bulk IP import by CIDR, all integrations, priority support, 90-day retention.',
      `- Custom Enterprise: everything in Professional plus custom integrations, dedicated support, white-label options, custom retention, SLA guarantees and custom volume limits. Contact ${COMPANY.salesEmail}.`,
      'Paid plans have a 30-day money-back guarantee; you can change plans at any time with pro-rata charges; annual billing is discounted. See /pricing.',
    ].join('\n'),
  },
  {
    id: 'support',
    title: 'Contacting support',
    text: `Email ${COMPANY.supportEmail} for help with your account or setup, or ${COMPANY.salesEmail} for sales and Custom Enterprise plans. Professional customers get priority support; Custom Enterprise customers get dedicated support.`,
  },
];
