import type { DnsResolver } from '../../platform/dns/resolver';

/*
 * Which mailbox provider holds a recipient's mailbox, told by the recipient domain's MX hosts: a
 * company's own domain on Google Workspace has Google's MX (aspmx.l.google.com), so the name of the
 * domain is not enough. The lookup goes through the app's resolver (and its cache); when DNS cannot
 * answer, the consumer domains everybody knows (gmail.com, outlook.com, ...) are still named.
 */

export const MAILBOX_PROVIDERS = [
  'gmail',
  'outlook',
  'yahoo',
  'apple',
  'proton',
  'zoho',
  'gmx',
  'yandex',
  'mailru',
  'fastmail',
  'comcast',
  'other',
] as const;
export type MailboxProvider = (typeof MAILBOX_PROVIDERS)[number];

/** MX host suffixes of each provider, from their published MX records. */
const MX_SUFFIXES: [suffix: string, provider: MailboxProvider][] = [
  ['google.com', 'gmail'], // gmail-smtp-in.l.google.com, aspmx.l.google.com (Workspace)
  ['googlemail.com', 'gmail'],
  ['protection.outlook.com', 'outlook'], // Microsoft 365 and outlook.com / hotmail.com (*.olc.protection.outlook.com)
  ['outlook.com', 'outlook'],
  ['hotmail.com', 'outlook'],
  ['yahoodns.net', 'yahoo'], // yahoo.com, aol.com, ymail.com: mta5.am0.yahoodns.net
  ['aol.com', 'yahoo'],
  ['icloud.com', 'apple'], // mx01.mail.icloud.com (icloud.com, me.com, mac.com)
  ['me.com', 'apple'],
  ['protonmail.ch', 'proton'],
  ['proton.me', 'proton'],
  ['zoho.com', 'zoho'],
  ['zoho.eu', 'zoho'],
  ['zoho.in', 'zoho'],
  ['zohomail.com', 'zoho'],
  ['gmx.net', 'gmx'], // mx00.emig.gmx.net (gmx.net, gmx.de, gmx.com)
  ['gmx.com', 'gmx'],
  ['web.de', 'gmx'], // mx-ha03.web.de: the same operator
  ['yandex.net', 'yandex'],
  ['yandex.ru', 'yandex'],
  ['mail.ru', 'mailru'],
  ['messagingengine.com', 'fastmail'],
  ['comcast.net', 'comcast'],
];

/** Consumer domains and their provider, for when the MX cannot be looked up. */
const DOMAINS: Record<string, MailboxProvider> = {
  'gmail.com': 'gmail',
  'googlemail.com': 'gmail',
  'outlook.com': 'outlook',
  'hotmail.com': 'outlook',
  'live.com': 'outlook',
  'msn.com': 'outlook',
  'yahoo.com': 'yahoo',
  'ymail.com': 'yahoo',
  'aol.com': 'yahoo',
  'icloud.com': 'apple',
  'me.com': 'apple',
  'mac.com': 'apple',
  'proton.me': 'proton',
  'protonmail.com': 'proton',
  'zoho.com': 'zoho',
  'gmx.net': 'gmx',
  'gmx.de': 'gmx',
  'gmx.com': 'gmx',
  'web.de': 'gmx',
  'yandex.ru': 'yandex',
  'yandex.com': 'yandex',
  'mail.ru': 'mailru',
  'fastmail.com': 'fastmail',
  'comcast.net': 'comcast',
};

const endsWith = (host: string, suffix: string) => host === suffix || host.endsWith(`.${suffix}`);

/** The provider of one MX host name; null when it is none of the known ones. */
export function providerOfMxHost(host: string): MailboxProvider | null {
  const name = host.toLowerCase().replace(/\.$/, '');
  for (const [suffix, provider] of MX_SUFFIXES) if (endsWith(name, suffix)) return provider;
  return null;
}

/** The provider a domain's name alone says (gmail.com, a yahoo.co.uk-style country domain); null when it says none. */
export function providerOfDomainName(domain: string): MailboxProvider | null {
  const name = domain.toLowerCase();
  if (DOMAINS[name]) return DOMAINS[name];
  if (/^yahoo\.[a-z.]{2,6}$/.test(name)) return 'yahoo';
  if (/^(hotmail|outlook|live)\.[a-z.]{2,6}$/.test(name)) return 'outlook';
  return null;
}

/** The provider of a domain from its MX hosts, most preferred first; `other` when none is known. */
export async function lookupMailboxProvider(dns: DnsResolver, domain: string): Promise<MailboxProvider> {
  try {
    const hosts = (await dns.mx(domain)).sort((a, b) => a.priority - b.priority);
    for (const mx of hosts) {
      const provider = providerOfMxHost(mx.exchange);
      if (provider) return provider;
    }
    if (hosts.length > 0) return 'other';
  } catch {
    // Timeout or SERVFAIL: the name alone, below.
  }
  return providerOfDomainName(domain) ?? 'other';
}

export interface ProviderLookupOptions {
  /** Lookups in flight at once: a batch may name hundreds of recipient domains. */
  concurrency?: number;
  /** The batch waits this long at most; domains not looked up by then are named by their name alone. */
  deadlineMs?: number;
}

/** The providers of many domains at once, each looked up once, within a deadline. */
export async function lookupMailboxProviders(
  dns: DnsResolver,
  domains: Iterable<string>,
  options: ProviderLookupOptions = {},
): Promise<Map<string, MailboxProvider>> {
  const queue = [...new Set(domains)];
  const found = new Map<string, MailboxProvider>();
  const deadline = Date.now() + (options.deadlineMs ?? 3000);
  const worker = async () => {
    for (let domain = queue.shift(); domain !== undefined; domain = queue.shift()) {
      const left = deadline - Date.now();
      if (left <= 0) {
        found.set(domain, providerOfDomainName(domain) ?? 'other');
        continue;
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), left);
      });
      const provider = await Promise.race([lookupMailboxProvider(dns, domain), late]).finally(() =>
        clearTimeout(timer),
      );
      found.set(domain, provider ?? providerOfDomainName(domain) ?? 'other');
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 16, queue.length) }, worker));
  return found;
}
