import { ESP_INTEGRATIONS, MTA_INTEGRATIONS } from '@content/integrations';

const NAMES = new Map<string, string>([
  ...ESP_INTEGRATIONS.map((i) => [i.id, i.name] as const),
  ...MTA_INTEGRATIONS.map((i) => [i.id, i.name] as const),
  // Part 1's spelling of the Postmaster Tools source (its setup guide list); the catalogue's id is google-postmaster.
  ['gmailpostmaster', 'Google Postmaster Tools'],
]);

/** A provider id as people know it ('sendgrid' -> 'SendGrid'); unknown ids are shown as they are. */
export function providerName(id: string): string {
  return NAMES.get(id.toLowerCase()) ?? id;
}

export const INTEGRATION_TYPE_LABELS: Record<string, string> = { esp: 'ESP', mta: 'MTA', analytics: 'Analytics' };

/**
 * Official setup documentation of the providers the spec names (part 1, 2.8). Other providers get
 * a toast pointing to their own documentation instead.
 */
const SETUP_GUIDES: Record<string, string> = {
  smtp2go: 'https://developers.smtp2go.com/docs/getting-started',
  gmailpostmaster: 'https://developers.google.com/workspace/gmail/postmaster',
  'google-postmaster': 'https://developers.google.com/workspace/gmail/postmaster',
  sendgrid: 'https://www.twilio.com/docs/sendgrid/ui/account-and-settings/api-keys',
  mailchimp: 'https://mailchimp.com/developer/marketing/guides/quick-start/',
  klaviyo: 'https://developers.klaviyo.com/en/docs/retrieve_api_credentials',
};

export function setupGuideUrl(provider: string): string | null {
  return SETUP_GUIDES[provider.toLowerCase()] ?? null;
}
