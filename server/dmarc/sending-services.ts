import { getDomain } from 'tldts';

/** A sending service: how its servers are named in reverse DNS, what it gives customers for SPF, what it signs as. */
export interface SendingService {
  name: string;
  /** Its servers' PTR names end in one of these (a name equal to one or under it, label by label). */
  ptrSuffixes: string[];
  /** The include(s) its documentation gives customers for their SPF record; empty when it documents none. */
  spfIncludes: string[];
  /** Registrable domains its customers' mail authenticates as when not set up for their own (return-path, DKIM d=). */
  authDomains: string[];
}

/*
 * The services senders most often use. Each entry names the documentation its SPF include comes from; PTR
 * suffixes are those the service's mail shows in reverse DNS (Received headers of real mail). A service that
 * asks customers for a CNAME'd return-path instead of an include (HubSpot, Klaviyo) has no include to list.
 */
export const SENDING_SERVICES: SendingService[] = [
  // https://support.google.com/a/answer/10685031 (include:_spf.google.com); PTRs mail-wr1-f53.google.com
  {
    name: 'Google Workspace',
    ptrSuffixes: ['google.com'],
    spfIncludes: ['_spf.google.com'],
    authDomains: ['google.com', 'gappssmtp.com'],
  },
  // https://learn.microsoft.com/en-us/defender-office-365/email-authentication-spf-configure (include:spf.protection.outlook.com)
  {
    name: 'Microsoft 365',
    ptrSuffixes: ['outbound.protection.outlook.com'],
    spfIncludes: ['spf.protection.outlook.com'],
    authDomains: ['onmicrosoft.com'],
  },
  // https://docs.aws.amazon.com/ses/latest/dg/send-email-authentication-spf.html (include:amazonses.com)
  {
    name: 'Amazon SES',
    ptrSuffixes: ['amazonses.com'],
    spfIncludes: ['amazonses.com'],
    authDomains: ['amazonses.com'],
  },
  // https://www.twilio.com/docs/sendgrid/ui/account-and-settings/spf-records (include:sendgrid.net)
  { name: 'SendGrid', ptrSuffixes: ['sendgrid.net'], spfIncludes: ['sendgrid.net'], authDomains: ['sendgrid.net'] },
  // https://mailchimp.com/help/set-up-email-domain-authentication/ (include:servers.mcsv.net)
  {
    name: 'Mailchimp',
    ptrSuffixes: ['mcsv.net', 'rsgsv.net', 'mcdlv.net'],
    spfIncludes: ['servers.mcsv.net'],
    authDomains: ['mcsv.net', 'rsgsv.net', 'mcdlv.net', 'mailchimpapp.net'],
  },
  // https://mailchimp.com/developer/transactional/docs/authentication-delivery/ (include:spf.mandrillapp.com)
  {
    name: 'Mandrill',
    ptrSuffixes: ['mandrillapp.com'],
    spfIncludes: ['spf.mandrillapp.com'],
    authDomains: ['mandrillapp.com'],
  },
  // https://documentation.mailgun.com/docs/mailgun/user-manual/get-started/ (include:mailgun.org)
  {
    name: 'Mailgun',
    ptrSuffixes: ['mailgun.net', 'mailgun.org', 'mailgun.info'],
    spfIncludes: ['mailgun.org'],
    authDomains: ['mailgun.org', 'mailgun.net', 'mailgun.info'],
  },
  // https://postmarkapp.com/support/article/1092-how-do-i-set-up-spf-for-postmark (include:spf.mtasv.net)
  {
    name: 'Postmark',
    ptrSuffixes: ['mtasv.net'],
    spfIncludes: ['spf.mtasv.net'],
    authDomains: ['mtasv.net', 'postmarkapp.com'],
  },
  // https://support.sparkpost.com/docs/getting-started/getting-started-sparkpost (include:sparkpostmail.com)
  {
    name: 'SparkPost',
    ptrSuffixes: ['sparkpostmail.com'],
    spfIncludes: ['sparkpostmail.com'],
    authDomains: ['sparkpostmail.com'],
  },
  // https://documentation.mailjet.com/hc/en-us/articles/360042412734 (include:spf.mailjet.com)
  { name: 'Mailjet', ptrSuffixes: ['mailjet.com'], spfIncludes: ['spf.mailjet.com'], authDomains: ['mailjet.com'] },
  // https://help.brevo.com/hc/en-us/articles/12163873383186 (include:spf.brevo.com; formerly spf.sendinblue.com)
  {
    name: 'Brevo',
    ptrSuffixes: ['brevo.com', 'sendinblue.com'],
    spfIncludes: ['spf.brevo.com'],
    authDomains: ['brevo.com', 'sendinblue.com'],
  },
  // https://support.smtp2go.com/hc/en-gb/articles/223087887 (include:spf.smtp2go.com)
  {
    name: 'SMTP2GO',
    ptrSuffixes: ['smtp2go.com', 'smtp2go.net'],
    spfIncludes: ['spf.smtp2go.com'],
    authDomains: ['smtp2go.com', 'smtp2go.net'],
  },
  // https://www.zoho.com/mail/help/adminconsole/spf-configuration.html (include:zohomail.com; zoho.eu, zoho.in by region)
  {
    name: 'Zoho Mail',
    ptrSuffixes: ['zoho.com', 'zoho.eu', 'zoho.in', 'zohomail.com'],
    spfIncludes: ['zohomail.com', 'zoho.eu', 'zoho.in'],
    authDomains: ['zoho.com', 'zoho.eu', 'zoho.in', 'zohomail.com'],
  },
  // https://proton.me/support/anti-spoofing-custom-domain (include:_spf.protonmail.ch)
  {
    name: 'Proton Mail',
    ptrSuffixes: ['protonmail.ch', 'proton.ch'],
    spfIncludes: ['_spf.protonmail.ch'],
    authDomains: ['protonmail.ch', 'proton.me', 'protonmail.com'],
  },
  // https://www.fastmail.help/hc/en-us/articles/360060591153 (include:spf.messagingengine.com)
  {
    name: 'Fastmail',
    ptrSuffixes: ['messagingengine.com'],
    spfIncludes: ['spf.messagingengine.com'],
    authDomains: ['messagingengine.com', 'fastmail.com'],
  },
  // https://knowledgebase.constantcontact.com/articles/KnowledgeBase/5810-spf-self-publishing (include:spf.constantcontact.com)
  {
    name: 'Constant Contact',
    ptrSuffixes: ['constantcontact.com'],
    spfIncludes: ['spf.constantcontact.com'],
    authDomains: ['constantcontact.com'],
  },
  // https://knowledge.hubspot.com/marketing-email/manage-email-authentication-in-hubspot (CNAME'd return-path, no include)
  {
    name: 'HubSpot',
    ptrSuffixes: ['hubspotemail.net'],
    spfIncludes: [],
    authDomains: ['hubspotemail.net', 'hubspotstarter.net', 'hs-email.net'],
  },
  // https://help.klaviyo.com/hc/en-us/articles/115000357732 (a branded sending domain by CNAME, no include)
  { name: 'Klaviyo', ptrSuffixes: ['klaviyomail.com'], spfIncludes: [], authDomains: ['klaviyomail.com'] },
  // https://help.salesforce.com/s/articleView?id=sf.mc_es_spf_record.htm (include:cust-spf.exacttarget.com)
  {
    name: 'Salesforce Marketing Cloud',
    ptrSuffixes: ['exacttarget.com'],
    spfIncludes: ['cust-spf.exacttarget.com'],
    authDomains: ['exacttarget.com'],
  },
  // https://help.salesforce.com/s/articleView?id=sf.emailadmin_spf_records.htm (include:_spf.salesforce.com)
  {
    name: 'Salesforce',
    ptrSuffixes: ['salesforce.com'],
    spfIncludes: ['_spf.salesforce.com'],
    authDomains: ['salesforce.com'],
  },
  // https://support.zendesk.com/hc/en-us/articles/4408832543770 (include:mail.zendesk.com)
  { name: 'Zendesk', ptrSuffixes: ['zendesk.com'], spfIncludes: ['mail.zendesk.com'], authDomains: ['zendesk.com'] },
  // https://support.freshdesk.com/support/solutions/articles/43170 (include:email.freshdesk.com)
  {
    name: 'Freshdesk',
    ptrSuffixes: ['freshdesk.com', 'freshemail.io'],
    spfIncludes: ['email.freshdesk.com'],
    authDomains: ['freshdesk.com', 'freshemail.io'],
  },
  // https://www.godaddy.com/help/add-an-spf-record-19218 (include:secureserver.net)
  {
    name: 'GoDaddy',
    ptrSuffixes: ['secureserver.net'],
    spfIncludes: ['secureserver.net'],
    authDomains: ['secureserver.net'],
  },
];

const byName = new Map(SENDING_SERVICES.map((s) => [s.name, s]));

/** Suffixes longest first, so that a name under a service's more specific suffix is that service's. */
const PTR_SUFFIXES = SENDING_SERVICES.flatMap((service) =>
  service.ptrSuffixes.map((suffix) => ({ suffix, service })),
).sort((a, b) => b.suffix.length - a.suffix.length);

const AUTH_DOMAINS = new Map(SENDING_SERVICES.flatMap((s) => s.authDomains.map((d) => [d, s] as const)));

export const sendingService = (name: string): SendingService | null => byName.get(name) ?? null;

/** The service whose servers carry this PTR name, if any: mail-wr1-f53.google.com -> Google Workspace. */
export function serviceByReverseDns(ptr: string | null | undefined): SendingService | null {
  if (!ptr) return null;
  const name = ptr.replace(/\.$/, '').toLowerCase();
  return PTR_SUFFIXES.find(({ suffix }) => name === suffix || name.endsWith(`.${suffix}`))?.service ?? null;
}

/** The service whose customers' mail authenticates as this domain (or a name under it), if any. */
export function serviceByAuthDomain(domain: string | null | undefined): SendingService | null {
  if (!domain) return null;
  return AUTH_DOMAINS.get(getDomain(domain) ?? domain.toLowerCase()) ?? null;
}
