import { describe, expect, it } from 'vitest';
import { gmailTab } from './gmail-tab';

describe('gmailTab', () => {
  it('reads the category from the names Gmail uses for it', () => {
    expect(gmailTab(['\\Important', 'CATEGORY_PROMOTIONS'])).toBe('Promotions');
    expect(gmailTab(['^smartlabel_social'])).toBe('Social');
    expect(gmailTab(['^smartlabel_notification', '\\Inbox'])).toBe('Updates');
    expect(gmailTab(['^smartlabel_group'])).toBe('Forums');
    expect(gmailTab(['Category Updates'])).toBe('Updates');
    expect(gmailTab(['\\Promotions'])).toBe('Promotions');
    expect(gmailTab(new Set(['category_forums']))).toBe('Forums');
  });

  it('gives no tab for the Primary tab, other labels, a label someone named "Promotions", or no labels', () => {
    expect(gmailTab(['CATEGORY_PERSONAL', '^smartlabel_personal', '\\Inbox', '\\Important', '\\Starred'])).toBeNull();
    expect(gmailTab(['Promotions', 'Receipts/Promotions'])).toBeNull();
    expect(gmailTab([])).toBeNull();
    expect(gmailTab(undefined)).toBeNull();
  });
});
