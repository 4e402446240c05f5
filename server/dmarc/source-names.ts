import { getDomain } from 'tldts';
import type { DnsResolver } from '../platform/dns/resolver';

export interface SourceName {
  reverseDns: string | null;
  organisation: string | null;
}

const NO_NAME: SourceName = { reverseDns: null, organisation: null };

export interface NameOptions {
  /** Lookups in flight at once: a report can name thousands of IPs. */
  concurrency?: number;
  /** The analytics answer waits this long at most; IPs not resolved by then stay unnamed. */
  deadlineMs?: number;
}

/**
 * PTR names of source IPs, and the organisation each belongs to (registrable domain of the
 * name: mail-wr1-f54.google.com -> google.com). A failed or slow lookup is just no name.
 */
export async function nameSources(
  dns: DnsResolver,
  ips: string[],
  options: NameOptions = {},
): Promise<Map<string, SourceName>> {
  const names = new Map<string, SourceName>();
  const queue = [...new Set(ips)];
  const deadline = Date.now() + (options.deadlineMs ?? 2500);
  const worker = async () => {
    for (let ip = queue.shift(); ip !== undefined; ip = queue.shift()) {
      if (Date.now() >= deadline) return;
      const ptr = await withDeadline(
        dns.reverse(ip).then((r) => r[0] ?? null),
        deadline,
      ).catch(() => null);
      names.set(ip, ptr ? { reverseDns: ptr.replace(/\.$/, '').toLowerCase(), organisation: getDomain(ptr) } : NO_NAME);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 16, queue.length) }, worker));
  return names;
}

function withDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A sending service recognised by the registrable domain of its PTR name or of the domain it authenticates as. */
export interface KnownProvider {
  name: string;
  /** The include: its documentation gives for a customer's SPF record; null when it has none to give (custom return-path only). */
  spfInclude: string | null;
}

/**
 * The services senders most often use, by registrable domain. Only what each provider documents;
 * a source not in the list is named by its reverse DNS or the domain it authenticates as.
 */
const KNOWN_PROVIDERS: Record<string, KnownProvider> = {
  'google.com': { name: 'Google', spfInclude: '_spf.google.com' },
  'outlook.com': { name: 'Microsoft 365', spfInclude: 'spf.protection.outlook.com' },
  'sendgrid.net': { name: 'SendGrid', spfInclude: 'sendgrid.net' },
  'amazonses.com': { name: 'Amazon SES', spfInclude: 'amazonses.com' },
  'mailgun.org': { name: 'Mailgun', spfInclude: 'mailgun.org' },
  'mailgun.net': { name: 'Mailgun', spfInclude: 'mailgun.org' },
  'mcsv.net': { name: 'Mailchimp', spfInclude: 'servers.mcsv.net' },
  'mcdlv.net': { name: 'Mailchimp', spfInclude: 'servers.mcsv.net' },
  'rsgsv.net': { name: 'Mailchimp', spfInclude: 'servers.mcsv.net' },
  'mandrillapp.com': { name: 'Mandrill', spfInclude: 'spf.mandrillapp.com' },
  'sparkpostmail.com': { name: 'SparkPost', spfInclude: 'sparkpostmail.com' },
  'mtasv.net': { name: 'Postmark', spfInclude: 'spf.mtasv.net' },
  'postmarkapp.com': { name: 'Postmark', spfInclude: 'spf.mtasv.net' },
  'mailjet.com': { name: 'Mailjet', spfInclude: 'spf.mailjet.com' },
  'sendinblue.com': { name: 'Brevo', spfInclude: 'spf.brevo.com' },
  'brevo.com': { name: 'Brevo', spfInclude: 'spf.brevo.com' },
  'smtp2go.com': { name: 'SMTP2GO', spfInclude: 'spf.smtp2go.com' },
  'zoho.com': { name: 'Zoho Mail', spfInclude: 'zoho.com' },
  'zoho.eu': { name: 'Zoho Mail', spfInclude: 'zoho.eu' },
  'protonmail.ch': { name: 'Proton Mail', spfInclude: '_spf.protonmail.ch' },
  'messagingengine.com': { name: 'Fastmail', spfInclude: 'spf.messagingengine.com' },
  'constantcontact.com': { name: 'Constant Contact', spfInclude: 'spf.constantcontact.com' },
  'hubspotemail.net': { name: 'HubSpot', spfInclude: null },
  'klaviyomail.com': { name: 'Klaviyo', spfInclude: null },
  'exacttarget.com': { name: 'Salesforce Marketing Cloud', spfInclude: null },
  'secureserver.net': { name: 'GoDaddy', spfInclude: 'secureserver.net' },
};

/** The provider a registrable domain (or any name under it) belongs to, if known. */
export function knownProvider(domain: string | null | undefined): KnownProvider | null {
  if (!domain) return null;
  const org = getDomain(domain) ?? domain.toLowerCase();
  return KNOWN_PROVIDERS[org] ?? null;
}
