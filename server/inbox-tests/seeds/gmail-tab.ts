/*
 * Gmail sorts inbox mail into tabs (categories). Over IMAP there are two ways to learn a message's
 * tab, both only where the server announces X-GM-EXT-1:
 * - its X-GM-LABELS. Gmail has long left categories out of them (clients such as Nylas and
 *   MailCore report only \Important, \Sent, ...), but the names it uses internally are known:
 *   CATEGORY_PROMOTIONS in the Gmail API, ^smartlabel_promo in Gmail's own search and feeds,
 *   "Category Promotions" in Takeout exports. gmailTab reads any of them, should they appear.
 * - a search: X-GM-RAW "category:promotions" answers reliably; seed-mailbox.ts falls back to it.
 */

export const GMAIL_TABS = ['Promotions', 'Social', 'Updates', 'Forums'] as const;
export type GmailTab = (typeof GMAIL_TABS)[number];

/** The X-GM-RAW query that finds a tab's messages. */
export const gmailTabQuery: Record<GmailTab, string> = {
  Promotions: 'category:promotions',
  Social: 'category:social',
  Updates: 'category:updates',
  Forums: 'category:forums',
};

// Lower-cased, without a leading \ or ^. The Primary tab (CATEGORY_PERSONAL) is no tab to report:
// it is the inbox as everyone knows it.
const tabByLabel = new Map<string, GmailTab>([
  ['category_promotions', 'Promotions'],
  ['smartlabel_promo', 'Promotions'],
  ['category promotions', 'Promotions'],
  ['promotions', 'Promotions'],
  ['category_social', 'Social'],
  ['smartlabel_social', 'Social'],
  ['category social', 'Social'],
  ['social', 'Social'],
  ['category_updates', 'Updates'],
  ['smartlabel_notification', 'Updates'],
  ['category updates', 'Updates'],
  ['updates', 'Updates'],
  ['category_forums', 'Forums'],
  ['smartlabel_group', 'Forums'],
  ['category forums', 'Forums'],
  ['forums', 'Forums'],
]);

/**
 * The category tab a message's Gmail labels put it in, or null. A bare "Promotions" counts only as
 * a system label (\Promotions): without the backslash it is a label somebody created.
 */
export function gmailTab(labels: Iterable<string> | undefined): GmailTab | null {
  for (const label of labels ?? []) {
    const system = /^[\\^]/.test(label);
    const name = label
      .replace(/^[\\^]+/, '')
      .trim()
      .toLowerCase();
    const tab = tabByLabel.get(name);
    if (tab && (system || name.includes('_') || name.includes(' '))) return tab;
  }
  return null;
}
