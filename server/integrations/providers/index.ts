import type { PluginId } from '@content/integrations';
import { activecampaign } from './activecampaign';
import { brevo } from './brevo';
import { constantcontact } from './constantcontact';
import { getresponse } from './getresponse';
import { hubspot } from './hubspot';
import { klaviyo } from './klaviyo';
import { mailchimp } from './mailchimp';
import { mailgun } from './mailgun';
import { omnisend } from './omnisend';
import type { EspProvider } from './provider';
import { sendgrid } from './sendgrid';
import { shopify } from './shopify';
import { smtp2go } from './smtp2go';
import { sparkpost } from './sparkpost';

/**
 * Every key-based ESP client by plugin id. Google Postmaster Tools is connected by signing in instead: its import
 * is a SignInProvider on the same sync loop (server/integration-providers.ts).
 */
export const PROVIDERS: Partial<Record<PluginId, EspProvider>> = {
  sendgrid,
  mailchimp,
  klaviyo,
  mailgun,
  smtp2go,
  constantcontact,
  hubspot,
  brevo,
  activecampaign,
  sparkpost,
  omnisend,
  shopifyemail: shopify,
  getresponse,
};
