/**
 * The brands phishing puts in a From display name most, and the registrable domains each brand
 * really sends from. The brands are those in the top 10s of Check Point Research's quarterly Brand
 * Phishing Rankings (as published for Q3 2020, Q1 2021, Q3 2024 and Q4 2024: Microsoft, Apple,
 * Google, LinkedIn, Alibaba, WhatsApp, Amazon, Twitter, Facebook, Adobe, Adidas, DHL, Roblox, PayPal,
 * Netflix, Instagram; earlier quarters add Spotify, Walmart, Wells Fargo, Booking.com) and the
 * targets of APWG's Phishing Activity Trends Reports (banks, payment services, webmail and SaaS,
 * logistics, crypto exchanges: PayPal, Chase, Bank of America, DocuSign, Dropbox, Coinbase, FedEx,
 * UPS, USPS). The domains are the ones each brand's own mail comes from, including the separate
 * domains some use for notifications (facebookmail.com, docusign.net, dropboxmail.com). Free
 * mailbox domains a brand runs (outlook.com, gmail.com, icloud.com) are not its sending domains:
 * anyone can open an address there, and "Microsoft Support <x@outlook.com>" is a classic phish.
 */
export interface PhishingBrand {
  /** How the brand is written in a display name, lower case, as words. */
  names: string[][];
  /** Registrable domains the brand sends from. */
  domains: string[];
  /** The name is also a person's given name ("Chase"): alone it names a person, with a service word the bank. */
  givenName?: boolean;
}

export const PHISHING_BRANDS: PhishingBrand[] = [
  {
    names: [['microsoft'], ['office', '365'], ['outlook'], ['onedrive'], ['sharepoint']],
    domains: ['microsoft.com', 'microsoftonline.com', 'office.com', 'office365.com'],
  },
  { names: [['google'], ['gmail']], domains: ['google.com', 'youtube.com'] },
  { names: [['apple'], ['icloud']], domains: ['apple.com'] },
  {
    names: [['amazon'], ['aws']],
    domains: [
      'amazon.com',
      'amazon.co.uk',
      'amazon.de',
      'amazon.fr',
      'amazon.it',
      'amazon.es',
      'amazon.ca',
      'amazon.co.jp',
      'amazon.in',
      'amazon.com.au',
      'amazonaws.com',
      'amazonses.com',
    ],
  },
  { names: [['paypal']], domains: ['paypal.com', 'paypal.co.uk', 'paypal.de', 'paypal.fr', 'paypal.it', 'paypal.es'] },
  { names: [['docusign']], domains: ['docusign.com', 'docusign.net'] },
  { names: [['netflix']], domains: ['netflix.com'] },
  { names: [['dhl']], domains: ['dhl.com', 'dhl.de', 'dhl.co.uk', 'dhl.fr', 'dhl.nl', 'dpdhl.com', 'dhl-news.com'] },
  { names: [['fedex']], domains: ['fedex.com'] },
  { names: [['ups']], domains: ['ups.com'] },
  { names: [['usps']], domains: ['usps.com', 'usps.gov'] },
  { names: [['chase']], domains: ['chase.com', 'jpmorgan.com', 'jpmorganchase.com'], givenName: true },
  { names: [['wells', 'fargo']], domains: ['wellsfargo.com', 'wf.com'] },
  { names: [['bank', 'of', 'america'], ['bofa']], domains: ['bankofamerica.com', 'bofa.com'] },
  { names: [['meta'], ['facebook']], domains: ['meta.com', 'facebook.com', 'facebookmail.com', 'fb.com'] },
  { names: [['instagram']], domains: ['instagram.com', 'facebookmail.com'] },
  { names: [['whatsapp']], domains: ['whatsapp.com', 'facebookmail.com'] },
  { names: [['dropbox']], domains: ['dropbox.com', 'dropboxmail.com'] },
  { names: [['adobe']], domains: ['adobe.com', 'adobesign.com', 'echosign.com'] },
  { names: [['linkedin']], domains: ['linkedin.com'] },
  { names: [['coinbase']], domains: ['coinbase.com'] },
  { names: [['spotify']], domains: ['spotify.com'] },
  { names: [['alibaba']], domains: ['alibaba.com', 'alibaba-inc.com'] },
  { names: [['walmart']], domains: ['walmart.com'] },
  { names: [['roblox']], domains: ['roblox.com'] },
  { names: [['booking', 'com']], domains: ['booking.com'] },
  // "X" alone is a letter in too many names to count as the brand; its old name is what phishing still uses.
  { names: [['twitter']], domains: ['twitter.com', 'x.com'] },
  { names: [['adidas']], domains: ['adidas.com', 'adidas-group.com'] },
];

/**
 * Words a brand's own senders put beside its name ("Microsoft 365 Billing Team", "PayPal Service",
 * "Amazon.com", "Apple Support"). A display name made of a brand and only these words presents the
 * message as the brand's; any other word ("Apple Valley Farm", "Chase Miller", "Google Developers
 * Group Berlin") makes it someone else's name that happens to contain the brand's.
 */
export const BRAND_SERVICE_WORDS = new Set([
  '365',
  'account',
  'accounts',
  'acrobat',
  'admin',
  'ads',
  'alert',
  'alerts',
  'bank',
  'banking',
  'billing',
  'business',
  'care',
  'center',
  'centre',
  'cloud',
  'com',
  'customer',
  'delivery',
  'department',
  'desk',
  'docs',
  'document',
  'documents',
  'drive',
  'electronic',
  'express',
  'help',
  'id',
  'inc',
  'info',
  'llc',
  'mail',
  'mailbox',
  'member',
  'no',
  'noreply',
  'notice',
  'notification',
  'notifications',
  'office',
  'onedrive',
  'online',
  'outlook',
  'pay',
  'payment',
  'payments',
  'prime',
  'protection',
  'reply',
  'secure',
  'security',
  'service',
  'services',
  'sharing',
  'shipping',
  'sign',
  'signature',
  'storage',
  'store',
  'subscription',
  'subscriptions',
  'support',
  'team',
  'teams',
  'the',
  'verification',
  'wallet',
  'web',
  'workspace',
]);
