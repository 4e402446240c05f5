/**
 * ESP, analytics and MTA integrations (part 1, section 1; part 2, section 2). Plain data.
 * The 13 ESPs plus Google Postmaster Tools (analytics) connect with credentials in the app;
 * MTAs send their delivery events to InboxPulse through webhooks.
 */
export interface Integration {
  id: string;
  name: string;
  description: string;
  /** esp: email service provider; analytics: a data source such as Google Postmaster Tools. */
  category: 'esp' | 'analytics';
}

export const ESP_INTEGRATIONS: Integration[] = [
  { id: 'sendgrid', name: 'SendGrid', description: 'Import delivery, bounce and spam report statistics from Twilio SendGrid.', category: 'esp' },
  { id: 'mailchimp', name: 'Mailchimp', description: 'Track the deliverability of your Mailchimp campaigns.', category: 'esp' },
  { id: 'klaviyo', name: 'Klaviyo', description: 'Follow the delivery metrics of your Klaviyo flows and campaigns.', category: 'esp' },
  { id: 'mailgun', name: 'Mailgun', description: 'Pull delivered, bounced and complained events from Mailgun.', category: 'esp' },
  { id: 'smtp2go', name: 'SMTP2GO', description: 'Monitor SMTP relay delivery metrics, engagement and reputation from SMTP2GO.', category: 'esp' },
  { id: 'constant-contact', name: 'Constant Contact', description: 'Watch bounces and complaints of your Constant Contact sends.', category: 'esp' },
  { id: 'hubspot', name: 'HubSpot', description: 'Bring HubSpot marketing email statistics into one view.', category: 'esp' },
  { id: 'brevo', name: 'Brevo', description: 'Import Brevo (formerly Sendinblue) transactional and campaign statistics.', category: 'esp' },
  { id: 'activecampaign', name: 'ActiveCampaign', description: 'Monitor the delivery of your ActiveCampaign automations.', category: 'esp' },
  { id: 'sparkpost', name: 'SparkPost', description: 'Track SparkPost delivery, bounce and complaint rates.', category: 'esp' },
  { id: 'omnisend', name: 'Omnisend', description: 'Follow the deliverability of your Omnisend ecommerce emails.', category: 'esp' },
  { id: 'shopify-email', name: 'Shopify Email', description: 'Keep an eye on the delivery of your Shopify Email campaigns.', category: 'esp' },
  { id: 'getresponse', name: 'GetResponse', description: 'Import GetResponse newsletter and autoresponder statistics.', category: 'esp' },
  {
    id: 'gmailpostmaster',
    name: 'Google Postmaster Tools',
    description: 'Add Gmail domain and IP reputation, spam rate and authentication data as an analytics source.',
    category: 'analytics',
  },
];

export interface MtaIntegration {
  id: string;
  name: string;
  description: string;
}

export const MTA_INTEGRATIONS: MtaIntegration[] = [
  { id: 'postfix', name: 'Postfix', description: 'Post delivered, bounced and deferred events from your Postfix logs.' },
  { id: 'powermta', name: 'PowerMTA', description: 'Stream PowerMTA accounting records to InboxPulse.' },
  { id: 'greenarrow', name: 'GreenArrow', description: 'Send GreenArrow delivery events through a webhook.' },
  { id: 'halon', name: 'Halon', description: 'Report Halon delivery results from your scripts.' },
  { id: 'kumomta', name: 'KumoMTA', description: 'Forward KumoMTA log events to InboxPulse.' },
  { id: 'postal', name: 'Postal', description: 'Connect Postal message webhooks to InboxPulse.' },
];
