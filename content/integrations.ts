/**
 * ESP, analytics and MTA integrations (part 1, section 1; part 2, sections 2, 3 and 5). Plain data,
 * shared by the server (which checks config against it and knows which fields are secret) and the
 * web (which draws the install dialog from it). The 13 ESPs plus Google Postmaster Tools (analytics)
 * connect with credentials in the app; MTAs send their delivery events to InboxPulse through webhooks.
 * Ids are the spec's plugin catalogue ids (part 2, section 3); docs/decisions/028 says why.
 */

export const PLUGIN_IDS = [
  'sendgrid',
  'mailchimp',
  'klaviyo',
  'mailgun',
  'smtp2go',
  'constantcontact',
  'hubspot',
  'brevo',
  'activecampaign',
  'sparkpost',
  'omnisend',
  'shopifyemail',
  'getresponse',
  'google-postmaster',
] as const;
export type PluginId = (typeof PLUGIN_IDS)[number];

/** The config field names of part 2, section 3's table. */
export type PluginFieldKey =
  | 'apiKey'
  | 'webhookUrl'
  | 'serverPrefix'
  | 'privateKey'
  | 'publicKey'
  | 'domain'
  | 'username'
  | 'credentials'
  | 'additionalConfig';

/**
 * How a field's value is checked (contracts/integrations.ts): `secret` any token without spaces;
 * `https-url` an https:// URL; `datacenter` a Mailchimp server prefix such as us21; `domain` a
 * domain name; `host` a host name or an https:// URL of one; `region` us or eu; `site-id` a
 * 6-character Klaviyo public key; `json` a JSON object; `text` one line of text.
 */
export type PluginFieldFormat =
  'secret' | 'https-url' | 'datacenter' | 'domain' | 'host' | 'region' | 'site-id' | 'json' | 'text';

export interface PluginField {
  key: PluginFieldKey;
  label: string;
  /** Stored encrypted, never shown again (the list shows the last characters only). */
  secret: boolean;
  required: boolean;
  format: PluginFieldFormat;
  placeholder?: string;
  /** What to enter, in a sentence (shown under the field). */
  help?: string;
  /** A text area rather than a line (the OAuth client JSON). */
  multiline?: boolean;
}

/** Where to get the credentials and what they must be allowed to do (step 1 of the install dialog). */
export interface KeyHint {
  where: string;
  permissions: string;
  /** What a valid key looks like (part 2, section 5), when the provider has a recognisable format. */
  format?: string;
}

export interface Integration {
  id: PluginId;
  name: string;
  description: string;
  /** esp: email service provider; analytics: a data source such as Google Postmaster Tools. */
  category: 'esp' | 'analytics';
  /** available: installable now; coming_soon: listed, not installable yet (its sign-in flow is not built). */
  status: 'available' | 'coming_soon';
  /** The plugin's own version, raised when what it imports changes. */
  version: string;
  /** An editorial ranking from 62 to 95 (part 2, section 3) used to order the cards; not a measured figure. */
  popularity: number;
  features: string[];
  requirements: string[];
  /** The provider's page on creating the credentials this plugin asks for. */
  documentation: string;
  /** The provider API the plugin calls. */
  apiEndpoint: string;
  fields: PluginField[];
  keyHint: KeyHint;
  /**
   * Whether a sync imports daily sending statistics. Providers without such an API are only tested
   * on each sync, which records when the connection last worked.
   */
  dailyStats: boolean;
  /** What a sync imports, or why it imports nothing, in a sentence. */
  syncs: string;
}

const label = (name: string): PluginField => ({
  key: 'additionalConfig',
  label: 'Account label (optional)',
  secret: false,
  required: false,
  format: 'text',
  placeholder: `My ${name} account`,
  help: `A name to tell this ${name} account apart in InboxPulse; ${name} itself does not need it.`,
});

const apiKey = (help: string, placeholder?: string, fieldLabel = 'API key'): PluginField => ({
  key: 'apiKey',
  label: fieldLabel,
  secret: true,
  required: true,
  format: 'secret',
  help,
  ...(placeholder ? { placeholder } : {}),
});

export const ESP_INTEGRATIONS: Integration[] = [
  {
    id: 'sendgrid',
    name: 'SendGrid',
    description: 'Import delivery, bounce and spam report statistics from Twilio SendGrid.',
    category: 'esp',
    status: 'available',
    version: '1.0.0',
    popularity: 95,
    features: ['Daily requests, deliveries, bounces and spam reports', 'Opens and clicks', 'Hourly sync'],
    requirements: ['A SendGrid API key with read access to Stats'],
    documentation: 'https://www.twilio.com/docs/sendgrid/ui/account-and-settings/api-keys',
    apiEndpoint: 'https://api.sendgrid.com/v3',
    fields: [
      apiKey('The API key created in SendGrid; it is stored encrypted.', 'SG.xxxxxxxxxxxxxxxxxxxxxx'),
      {
        key: 'webhookUrl',
        label: 'Event Webhook URL (optional)',
        secret: false,
        required: false,
        format: 'https-url',
        placeholder: 'https://example.com/sendgrid/events',
        help: "The HTTPS address your SendGrid Event Webhook posts to, kept with the integration for reference; the statistics come from SendGrid's API.",
      },
    ],
    keyHint: {
      where: 'In SendGrid, open Settings, then API Keys, and click Create API Key.',
      permissions: 'Restricted Access with Stats set to Read Access is enough.',
      format: 'Starts with "SG." and is about 69 characters long.',
    },
    dailyStats: true,
    syncs:
      'Daily requests, deliveries, hard and soft bounces, deferrals, spam reports, opens and clicks from the global Stats API.',
  },
  {
    id: 'mailchimp',
    name: 'Mailchimp',
    description: 'Track the deliverability of your Mailchimp campaigns.',
    category: 'esp',
    status: 'available',
    version: '1.0.0',
    popularity: 93,
    features: ['Campaign sends, bounces and abuse reports by send day', 'Opens and clicks'],
    requirements: ['A Mailchimp Marketing API key'],
    documentation: 'https://mailchimp.com/developer/marketing/guides/quick-start/',
    apiEndpoint: 'https://<dc>.api.mailchimp.com/3.0',
    fields: [
      apiKey(
        'The Marketing API key from your Mailchimp account; it is stored encrypted.',
        'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx-us21',
      ),
      {
        key: 'serverPrefix',
        label: 'Server prefix (optional)',
        secret: false,
        required: false,
        format: 'datacenter',
        placeholder: 'us21',
        help: 'The part after the dash at the end of your API key; left empty, it is read from the key.',
      },
    ],
    keyHint: {
      where: 'In Mailchimp, open your profile, then Extras, then API keys, and click Create A Key.',
      permissions: 'Marketing API keys have full account access; Mailchimp offers no read-only key.',
      format: 'Ends with a datacenter suffix such as -us1.',
    },
    dailyStats: true,
    syncs:
      'Each sent campaign report (emails sent, hard and soft bounces, abuse reports, opens and clicks), added up by the day the campaign was sent.',
  },
  {
    id: 'klaviyo',
    name: 'Klaviyo',
    description: 'Follow the delivery metrics of your Klaviyo flows and campaigns.',
    category: 'esp',
    status: 'available',
    version: '1.0.0',
    popularity: 88,
    features: ['Daily received and bounced emails', 'Spam complaints, opens and clicks'],
    requirements: ['A Klaviyo private API key with read access to Accounts and Metrics'],
    documentation: 'https://developers.klaviyo.com/en/docs/retrieve_api_credentials',
    apiEndpoint: 'https://a.klaviyo.com/api',
    fields: [
      {
        key: 'privateKey',
        label: 'Private API key',
        secret: true,
        required: true,
        format: 'secret',
        placeholder: 'pk_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
        help: 'The private key created in Klaviyo; it is stored encrypted.',
      },
      {
        key: 'publicKey',
        label: 'Public API key / Site ID (optional)',
        secret: false,
        required: false,
        format: 'site-id',
        placeholder: 'AbC123',
        help: 'The 6-character public key shown beside your private keys, to tell accounts apart.',
      },
    ],
    keyHint: {
      where: 'In Klaviyo, open Settings, then API keys, and click Create Private API Key.',
      permissions: 'Custom Key with Read-Only access to Accounts and Metrics.',
      format: 'The private key starts with "pk_"; the public key is 6 characters.',
    },
    dailyStats: true,
    syncs:
      'Daily counts of the Received Email, Bounced Email, Marked Email as Spam, Opened Email and Clicked Email metrics; sent is received plus bounced.',
  },
  {
    id: 'mailgun',
    name: 'Mailgun',
    description: 'Pull delivered, bounced and complained events from Mailgun.',
    category: 'esp',
    status: 'available',
    version: '1.0.0',
    popularity: 86,
    features: ['Daily accepted, delivered and failed messages', 'Complaints, opens and clicks', 'US and EU regions'],
    requirements: ['A Mailgun API key', 'A sending domain of the account (optional)'],
    documentation: 'https://documentation.mailgun.com/docs/mailgun/api-reference/authentication',
    apiEndpoint: 'https://api.mailgun.net/v3',
    fields: [
      apiKey('The Mailgun API key; it is stored encrypted.', 'key-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'),
      {
        key: 'domain',
        label: 'Sending domain (optional)',
        secret: false,
        required: false,
        format: 'domain',
        placeholder: 'mg.example.com',
        help: 'The domain whose statistics to import; left empty, every domain of the account is added up (up to 20).',
      },
    ],
    keyHint: {
      where: 'In Mailgun, open your account menu, then API Security, and create or copy an API key.',
      permissions: 'An account API key, or a domain sending key for the domain you enter.',
      format: 'Older keys start with "key-".',
    },
    dailyStats: true,
    syncs:
      'Daily accepted, delivered, temporary and permanent failures, complaints, opens and clicks from the domain statistics API.',
  },
  {
    id: 'smtp2go',
    name: 'SMTP2GO',
    description: 'Monitor SMTP relay delivery metrics, engagement and reputation from SMTP2GO.',
    category: 'esp',
    status: 'available',
    version: '1.0.0',
    popularity: 78,
    features: ['Daily sent emails, bounces and spam complaints', 'Opens and clicks', 'Hourly sync'],
    requirements: ['An SMTP2GO API key with the Read Stats and Read Activity permissions'],
    documentation: 'https://developers.smtp2go.com/docs/getting-started',
    apiEndpoint: 'https://api.smtp2go.com/v3',
    fields: [
      apiKey('The SMTP2GO API key; it is stored encrypted.', 'api-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'),
      {
        key: 'username',
        label: 'SMTP username (optional)',
        secret: false,
        required: false,
        format: 'text',
        placeholder: 'mailer@example.com',
        help: 'The SMTP user you send with, to tell several SMTP2GO integrations apart; the statistics cover the whole account.',
      },
    ],
    keyHint: {
      where: 'In SMTP2GO, open Sending, then API Keys, and click Add API Key.',
      permissions: 'Read Stats and Read Activity.',
      format: 'Starts with "api-".',
    },
    dailyStats: true,
    syncs:
      'A daily email history summary: emails sent, bounces, rejects, spam complaints, opens and clicks, added up over your senders.',
  },
  {
    id: 'constantcontact',
    name: 'Constant Contact',
    description: 'Watch bounces and complaints of your Constant Contact sends.',
    category: 'esp',
    status: 'available',
    version: '1.0.0',
    popularity: 74,
    features: ['Campaign sends, bounces and abuse reports by send day', 'Opens and clicks'],
    requirements: ['A Constant Contact V3 API access token with the account_read and campaign_data scopes'],
    documentation: 'https://developer.constantcontact.com/api_guide/auth_overview.html',
    apiEndpoint: 'https://api.cc.email/v3',
    fields: [
      apiKey(
        'An OAuth 2 access token of the V3 API; it is stored encrypted. Access tokens expire: paste a new one when the sync reports it is no longer valid.',
        undefined,
        'Access token',
      ),
      label('Constant Contact'),
    ],
    keyHint: {
      where:
        'Create an application in the Constant Contact developer portal and authorize it for your account to get an access token.',
      permissions: 'The account_read and campaign_data scopes.',
    },
    dailyStats: true,
    syncs:
      'Each email campaign summary (sends, bounces, abuse reports, opens and clicks), added up by the day the campaign was last sent.',
  },
  {
    id: 'hubspot',
    name: 'HubSpot',
    description: 'Bring HubSpot marketing email statistics into one view.',
    category: 'esp',
    status: 'available',
    version: '1.0.0',
    popularity: 84,
    features: ['Daily sent, delivered and bounced marketing emails', 'Spam reports, opens and clicks'],
    requirements: ['A HubSpot private app access token with the content scope', 'Marketing Hub for email statistics'],
    documentation: 'https://developers.hubspot.com/docs/api/private-apps',
    apiEndpoint: 'https://api.hubapi.com',
    fields: [
      apiKey(
        'The access token of a HubSpot private app; it is stored encrypted.',
        'pat-na1-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx',
        'Private app access token',
      ),
      label('HubSpot'),
    ],
    keyHint: {
      where: 'In HubSpot, open Settings, then Integrations, then Private Apps, and create a private app.',
      permissions: 'The content scope (marketing email statistics).',
      format: 'Starts with "pat-".',
    },
    dailyStats: true,
    syncs: 'Daily marketing email statistics: sent, delivered, hard and soft bounces, spam reports, opens and clicks.',
  },
  {
    id: 'brevo',
    name: 'Brevo',
    description: 'Import Brevo (formerly Sendinblue) transactional and campaign statistics.',
    category: 'esp',
    status: 'available',
    version: '1.0.0',
    popularity: 82,
    features: ['Daily requests, deliveries, hard and soft bounces', 'Spam reports, opens and clicks'],
    requirements: ['A Brevo API key (v3)'],
    documentation: 'https://developers.brevo.com/docs/getting-started',
    apiEndpoint: 'https://api.brevo.com/v3',
    fields: [apiKey('The Brevo API key; it is stored encrypted.', 'xkeysib-xxxxxxxxxxxxxxxx'), label('Brevo')],
    keyHint: {
      where:
        'In Brevo, open your profile menu, then SMTP & API, then the API Keys tab, and click Generate a new API key.',
      permissions: 'API keys have full account access; Brevo offers no read-only key.',
      format: 'Starts with "xkeysib-".',
    },
    dailyStats: true,
    syncs:
      'Daily transactional email reports: requests, delivered, hard and soft bounces, spam reports, opens and clicks.',
  },
  {
    id: 'activecampaign',
    name: 'ActiveCampaign',
    description: 'Monitor the delivery of your ActiveCampaign automations.',
    category: 'esp',
    status: 'available',
    version: '1.0.0',
    popularity: 76,
    features: ['Campaign sends, hard and soft bounces by send day', 'Opens and clicks'],
    requirements: ['Your ActiveCampaign API URL and API key'],
    documentation: 'https://developers.activecampaign.com/reference/authentication',
    apiEndpoint: 'https://<account>.api-us1.com/api/3',
    fields: [
      apiKey('The API key from the Developer settings; it is stored encrypted.'),
      {
        key: 'additionalConfig',
        label: 'API URL',
        secret: false,
        required: true,
        format: 'host',
        placeholder: 'https://youraccount.api-us1.com',
        help: 'The API URL shown beside the key in Settings, Developer.',
      },
    ],
    keyHint: {
      where: 'In ActiveCampaign, open Settings, then Developer: the API URL and the key are shown there.',
      permissions: 'The key has the access of the user it belongs to; use a user that can see campaigns and reports.',
    },
    dailyStats: true,
    syncs: 'Each sent campaign (sends, hard and soft bounces, opens and clicks), added up by the day it was sent.',
  },
  {
    id: 'sparkpost',
    name: 'SparkPost',
    description: 'Track SparkPost delivery, bounce and complaint rates.',
    category: 'esp',
    status: 'available',
    version: '1.0.0',
    popularity: 72,
    features: [
      'Daily targeted, delivered, bounced and delayed messages',
      'Spam complaints, opens and clicks',
      'US and EU regions',
    ],
    requirements: ['A SparkPost API key with the Metrics: Read-only permission'],
    documentation: 'https://support.sparkpost.com/docs/getting-started/create-api-keys',
    apiEndpoint: 'https://api.sparkpost.com/api/v1',
    fields: [
      apiKey('The SparkPost API key; it is stored encrypted.'),
      {
        key: 'additionalConfig',
        label: 'Region (optional)',
        secret: false,
        required: false,
        format: 'region',
        placeholder: 'us',
        help: 'eu for an account on SparkPost EU (app.eu.sparkpost.com); us or empty otherwise.',
      },
    ],
    keyHint: {
      where: 'In SparkPost, open Configuration, then API Keys, and click Create API Key.',
      permissions: 'Metrics: Read-only.',
    },
    dailyStats: true,
    syncs:
      'Daily deliverability metrics: targeted, delivered, hard, soft and block bounces, delays, spam complaints, opens and clicks.',
  },
  {
    id: 'omnisend',
    name: 'Omnisend',
    description: 'Follow the deliverability of your Omnisend ecommerce emails.',
    category: 'esp',
    status: 'available',
    version: '1.0.0',
    popularity: 68,
    features: ['Connection monitoring with alerts when the key stops working'],
    requirements: ['An Omnisend API key with the Campaigns permission'],
    documentation: 'https://support.omnisend.com/api-documentation/generating-api-key',
    apiEndpoint: 'https://api.omnisend.com/v3',
    fields: [apiKey('The Omnisend API key; it is stored encrypted.'), label('Omnisend')],
    keyHint: {
      where: 'In Omnisend, open your account menu, then Store settings, then API keys, and click Create API key.',
      permissions: 'Custom permissions with Campaigns (view).',
    },
    dailyStats: false,
    syncs:
      "Omnisend's API offers no daily sending statistics: each sync checks that the key still works and records when it last did.",
  },
  {
    id: 'shopifyemail',
    name: 'Shopify Email',
    description: 'Keep an eye on the delivery of your Shopify Email campaigns.',
    category: 'esp',
    status: 'available',
    version: '1.0.0',
    popularity: 70,
    features: ['Connection monitoring with alerts when the token stops working'],
    requirements: ['A custom app Admin API access token', 'Your store domain'],
    documentation: 'https://help.shopify.com/en/manual/apps/app-types/custom-apps',
    apiEndpoint: 'https://<store>.myshopify.com/admin/api',
    fields: [
      apiKey(
        'The Admin API access token of a custom app; it is stored encrypted.',
        'shpat_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
        'Admin API access token',
      ),
      {
        key: 'additionalConfig',
        label: 'Store domain',
        secret: false,
        required: true,
        format: 'host',
        placeholder: 'yourstore.myshopify.com',
        help: 'The myshopify.com address of your store.',
      },
    ],
    keyHint: {
      where:
        'In Shopify admin, open Settings, then Apps and sales channels, then Develop apps, create an app and install it to reveal the token.',
      permissions: 'No particular Admin API scope is needed to read the shop itself.',
      format: 'Starts with "shpat_".',
    },
    dailyStats: false,
    syncs:
      'Shopify offers no API for Shopify Email statistics: each sync checks that the token still works and records when it last did.',
  },
  {
    id: 'getresponse',
    name: 'GetResponse',
    description: 'Import GetResponse newsletter and autoresponder statistics.',
    category: 'esp',
    status: 'available',
    version: '1.0.0',
    popularity: 65,
    features: ['Daily newsletter sends, bounces and complaints', 'Opens and clicks'],
    requirements: ['A GetResponse API key'],
    documentation: 'https://apidocs.getresponse.com/v3/authentication',
    apiEndpoint: 'https://api.getresponse.com/v3',
    fields: [apiKey('The GetResponse API key; it is stored encrypted.'), label('GetResponse')],
    keyHint: {
      where: 'In GetResponse, open Tools, then Integrations and API, then API, and click Generate API key.',
      permissions: 'API keys have the access of the account; GetResponse offers no read-only key.',
    },
    dailyStats: true,
    syncs: 'Daily newsletter statistics: sent, bounced, complaints, opens and clicks.',
  },
  {
    id: 'google-postmaster',
    name: 'Google Postmaster Tools',
    description: 'Add Gmail domain and IP reputation, spam rate and authentication data as an analytics source.',
    category: 'analytics',
    status: 'available',
    version: '1.0.0',
    popularity: 62,
    features: [
      'Gmail spam rate',
      'Domain and IP reputation',
      'SPF, DKIM and DMARC success rates',
      'TLS and delivery errors',
    ],
    requirements: [
      'A domain verified in Google Postmaster Tools',
      'Signing in with the Google account that verified it',
    ],
    documentation: 'https://developers.google.com/workspace/gmail/postmaster',
    apiEndpoint: 'https://gmailpostmastertools.googleapis.com/v1',
    fields: [
      {
        key: 'credentials',
        label: 'OAuth client JSON',
        secret: true,
        required: true,
        format: 'json',
        multiline: true,
        help: 'The OAuth client credentials (JSON) downloaded from Google Cloud; it is stored encrypted.',
      },
      {
        key: 'domain',
        label: 'Domain',
        secret: false,
        required: true,
        format: 'domain',
        placeholder: 'example.com',
        help: 'The domain verified in Postmaster Tools.',
      },
    ],
    keyHint: {
      where:
        'Verify your domain in Postmaster Tools, then click Connect with Google and sign in with the Google account that verified it.',
      permissions: 'Read-only access to Postmaster Tools data, which Google asks you to grant.',
    },
    dailyStats: false,
    syncs:
      "Connected with Google sign-in, not with a key: Gmail's figures for your verified domains (spam rate, authentication, TLS, delivery errors, reputation) are imported daily into their own view, apart from the sending statistics.",
  },
];

/** The plugin of an id, or undefined for an id outside the catalogue (an MTA, a typo). */
export function pluginById(id: string): Integration | undefined {
  return ESP_INTEGRATIONS.find((plugin) => plugin.id === id);
}

export interface MtaIntegration {
  id: string;
  name: string;
  description: string;
}

export const MTA_INTEGRATIONS: MtaIntegration[] = [
  {
    id: 'postfix',
    name: 'Postfix',
    description: 'Post delivered, bounced and deferred events from your Postfix logs.',
  },
  { id: 'powermta', name: 'PowerMTA', description: 'Stream PowerMTA accounting records to InboxPulse.' },
  { id: 'greenarrow', name: 'GreenArrow', description: 'Send GreenArrow delivery events through a webhook.' },
  { id: 'halon', name: 'Halon', description: 'Report Halon delivery results from your scripts.' },
  { id: 'kumomta', name: 'KumoMTA', description: 'Forward KumoMTA log events to InboxPulse.' },
  { id: 'postal', name: 'Postal', description: 'Connect Postal message webhooks to InboxPulse.' },
];
