/**
 * The company behind the product: shown in the landing page footer and quoted by the chat
 * assistant. Plain data, no React or Node imports, so both the web app and the server can use it.
 */
export const COMPANY = {
  productName: 'InboxPulse',
  legalEntity: 'InboxPulse Inc.',
  postalAddress: '2261 Market Street, Suite 4120, San Francisco, CA 94114, United States',
  supportEmail: 'support@inboxpulse.com',
  salesEmail: 'sales@inboxpulse.com',
} as const;

export type Company = typeof COMPANY;
