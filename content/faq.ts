import { COMPANY } from './company';
import { CLAIMS } from './features';

/**
 * The landing page FAQ (part 1, section 9). Note: the FAQ states 25+ providers while the rest of
 * the landing page states 45+; both are kept as the spec writes them.
 */
export interface FaqEntry {
  question: string;
  answer: string;
}

export const FAQ: FaqEntry[] = [
  {
    question: 'What is InboxPulse?',
    answer:
      'InboxPulse is an email deliverability monitoring platform. It tests where your email lands (inbox, spam or missing), monitors your SPF, DKIM and DMARC authentication, watches the reputation and blacklist status of your IP addresses and domains, and alerts you when something changes.',
  },
  {
    question: 'How many mailbox providers do you test?',
    answer: `Inbox placement tests cover ${CLAIMS.providersFaq} global mailbox providers across ${CLAIMS.regions} regions, with results per provider, region, country and mailbox system.`,
  },
  {
    question: 'How long does setup take?',
    answer: `Under ${CLAIMS.setupMinutes} minutes. Add your domain and verify it with one DNS record, connect your email service provider with an API key, then run your first inbox test.`,
  },
  {
    question: 'Is there a free plan?',
    answer:
      'Yes. The Free plan is $0 forever and needs no credit card. It includes 1 domain, basic monitoring, email alerts, email support and 7-day data retention.',
  },
  {
    question: 'Do you offer a money-back guarantee?',
    answer: 'Yes. All paid plans come with a 30-day money-back guarantee.',
  },
  {
    question: 'Can I change my plan later?',
    answer: 'Yes. You can upgrade or downgrade at any time; changes are charged pro-rata.',
  },
  {
    question: 'Do you offer annual billing?',
    answer: 'Yes. Annual billing is available at a discount compared with paying monthly.',
  },
  {
    question: 'How long do you keep my data?',
    answer:
      'Data is kept for 7 days on the Free plan and 90 days on the Professional plan. Custom Enterprise plans can set a custom retention period.',
  },
  {
    question: 'Which email service providers do you integrate with?',
    answer:
      'SendGrid, Mailchimp, Klaviyo, Mailgun, SMTP2GO, Constant Contact, HubSpot, Brevo, ActiveCampaign, SparkPost, Omnisend, Shopify Email and GetResponse, plus Google Postmaster Tools as an analytics source. Mail transfer agents such as Postfix, PowerMTA, GreenArrow, Halon, KumoMTA and Postal connect through webhooks.',
  },
  {
    question: 'How will I be alerted about problems?',
    answer: `Alerts cover ${CLAIMS.alertCategories} categories (critical, reputation and performance). Every plan gets email alerts; the Professional plan adds Slack, SMS and webhook channels.`,
  },
  {
    question: 'Do you have an API?',
    answer:
      'Yes. The Professional plan includes a REST API secured with bearer API keys, webhooks, and SDK pointers for Node.js, Python, PHP and Ruby.',
  },
  {
    question: 'How do I contact you?',
    answer: `Write to ${COMPANY.supportEmail} for support or ${COMPANY.salesEmail} for sales and Custom Enterprise plans.`,
  },
];
