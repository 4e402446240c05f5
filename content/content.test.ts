import { describe, expect, it } from 'vitest';
import {
  ALERT_CHANNELS,
  CLAIMS,
  COMPANY,
  COMPARISON_ROWS,
  ESP_INTEGRATIONS,
  FAQ,
  FEATURES,
  GUIDES,
  MTA_INTEGRATIONS,
  ONBOARDING_STEPS,
  PLANS,
  SAMPLE_PLACEMENT,
  SAMPLE_PLACEMENT_LABEL,
  TESTIMONIALS,
  TRUST_BADGES,
} from './index';

describe('content', () => {
  it('company has a legal entity, an address and e-mail addresses on the product domain', () => {
    expect(COMPANY.productName).toBe('InboxPulse');
    expect(COMPANY.legalEntity).toMatch(/\S/);
    expect(COMPANY.postalAddress).toMatch(/\S/);
    expect(COMPANY.supportEmail).toMatch(/^[^@\s]+@inboxpulse\.[a-z]+$/);
    expect(COMPANY.salesEmail).toMatch(/^[^@\s]+@inboxpulse\.[a-z]+$/);
  });

  it('has the three landing plans, each with features, and the spec prices and retention', () => {
    expect(PLANS.map((p) => p.id)).toEqual(['free', 'professional', 'enterprise']);
    for (const plan of PLANS) expect(plan.features.length).toBeGreaterThan(0);
    const [free, pro, enterprise] = PLANS;
    expect(free.priceMonthly).toBe(0);
    expect(free.description).toMatch(/no credit card/i);
    expect(free.features).toContain('1 domain');
    expect(free.retention).toBe('7 days');
    expect(pro.priceMonthly).toBe(49);
    expect(pro.retention).toBe('90 days');
    expect(pro.popular).toBe(true);
    expect(enterprise.name).toBe('Custom Enterprise');
    expect(enterprise.priceMonthly).toBeNull();
  });

  it('FAQ has at least 8 entries with the spec claims', () => {
    expect(FAQ.length).toBeGreaterThanOrEqual(8);
    for (const entry of FAQ) {
      expect(entry.question).toMatch(/\S/);
      expect(entry.answer).toMatch(/\S/);
    }
    const all = FAQ.map((e) => e.answer).join('\n');
    expect(all).toContain('30-day money-back');
    expect(all).toContain('pro-rata');
    expect(all).toMatch(/annual billing/i);
    expect(all).toContain('25+');
    expect(all).not.toContain('45+');
    expect(all).toContain('7 days');
    expect(all).toContain('90 days');
    expect(all).toContain('10 minutes');
  });

  it('lists the 13 ESPs, Google Postmaster Tools as analytics, and the 6 MTAs', () => {
    const esps = ESP_INTEGRATIONS.filter((i) => i.category === 'esp').map((i) => i.name);
    expect(esps.sort()).toEqual(
      [
        'SendGrid',
        'Mailchimp',
        'Klaviyo',
        'Mailgun',
        'SMTP2GO',
        'Constant Contact',
        'HubSpot',
        'Brevo',
        'ActiveCampaign',
        'SparkPost',
        'Omnisend',
        'Shopify Email',
        'GetResponse',
      ].sort(),
    );
    expect(ESP_INTEGRATIONS.find((i) => i.name === 'Google Postmaster Tools')?.category).toBe('analytics');
    expect(MTA_INTEGRATIONS.map((m) => m.name)).toEqual(['Postfix', 'PowerMTA', 'GreenArrow', 'Halon', 'KumoMTA', 'Postal']);
    const ids = [...ESP_INTEGRATIONS, ...MTA_INTEGRATIONS].map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps the disagreeing marketing claims as written', () => {
    expect(CLAIMS.providersLanding).toBe('45+');
    expect(CLAIMS.providersFaq).toBe('25+');
    expect(CLAIMS.providersIntegrations).toBe('15+');
    expect(CLAIMS.regions).toBe(5);
    expect(CLAIMS.setupMinutes).toBe(10);
    expect(CLAIMS.sampleTestSeconds).toBe(45);
    expect([CLAIMS.blacklistsMonitoring, CLAIMS.blacklistsOverview, CLAIMS.blacklistsDocs]).toEqual([47, 50, 52]);
    expect(CLAIMS.alertCategories).toBe(14);
  });

  it('has features, three onboarding steps, alert channels and a comparison table', () => {
    expect(FEATURES.length).toBeGreaterThanOrEqual(7);
    expect(ONBOARDING_STEPS.map((s) => s.step)).toEqual([1, 2, 3]);
    expect(ALERT_CHANNELS.map((c) => c.id)).toEqual(['email', 'slack', 'sms', 'webhook']);
    expect(COMPARISON_ROWS.length).toBeGreaterThan(5);
  });

  it('has guides the chat assistant can quote, with unique ids', () => {
    const ids = GUIDES.map((g) => g.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const guide of GUIDES) expect(guide.text.length).toBeGreaterThan(40);
    expect(GUIDES.find((g) => g.id === 'add-domain')?.text).toContain('_inboxpulse.');
    expect(GUIDES.find((g) => g.id === 'dmarc-reports')?.text).toContain('rua=');
    expect(GUIDES.find((g) => g.id === 'api')?.text).toMatch(/Bearer/);
  });

  it('has three testimonials, trust badges and a labelled sample placement panel', () => {
    expect(TESTIMONIALS).toHaveLength(3);
    for (const t of TESTIMONIALS) expect(t.rating).toBeGreaterThanOrEqual(1);
    expect(TRUST_BADGES.length).toBeGreaterThan(0);
    expect(SAMPLE_PLACEMENT_LABEL).toBe('Sample results');
    for (const row of SAMPLE_PLACEMENT) {
      expect(row.inboxPercent).toBeGreaterThanOrEqual(0);
      expect(row.inboxPercent).toBeLessThanOrEqual(100);
    }
  });
});
