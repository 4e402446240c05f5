import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLAN_IDS, PLAN_LABELS } from '../contracts/plans';
import { ownershipRecordName } from '../server/domains/checks/run-checks';
import { PATHS } from '../web/lib/paths';
import * as content from './index';
import {
  ALERT_CATEGORY_GROUPS,
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
} from './index';

/** Every string of a value, however deep. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

const ALL_TEXT = stringsOf(content);
const guide = (id: string) => {
  const found = GUIDES.find((g) => g.id === id);
  if (!found) throw new Error(`no guide ${id}`);
  return found.text;
};
const faqAnswer = (question: RegExp) => {
  const found = FAQ.find((e) => question.test(e.question));
  if (!found) throw new Error(`no FAQ question matching ${question}`);
  return found.answer;
};

describe('every text', () => {
  it('is written out: not blank, no template left unfilled, no stray whitespace at the ends', () => {
    expect(ALL_TEXT.length).toBeGreaterThan(100);
    for (const text of ALL_TEXT) {
      expect(text, JSON.stringify(text)).toMatch(/\S/);
      expect(text, JSON.stringify(text)).not.toMatch(/\bundefined\b|\bNaN\b|\[object |\$\{/);
      expect(text).toBe(text.trim());
    }
  });

  it('links only to pages the app routes', () => {
    const routed = new Map<string, string>(Object.entries(PATHS).map(([key, path]) => [path, key]));
    const router = readFileSync(new URL('../web/app/router.tsx', import.meta.url), 'utf8');
    // A site path written in running text: "/register;", "(/mta-integration)"; not "ESP/MTA" or "$49/month".
    const linked = new Set(
      ALL_TEXT.flatMap((text) => text.match(/(?<![\w./:<>-])\/[a-z][a-z0-9-]*(?:\/[a-z0-9-]+)*/g) ?? []),
    );
    expect(linked.size).toBeGreaterThan(0);
    for (const path of linked) {
      expect(routed.has(path), `${path} is not in web/lib/paths.ts`).toBe(true);
      expect(router, `${path} has no route in web/app/router.tsx`).toContain(`path: PATHS.${routed.get(path)},`);
    }
  });
});

describe('ids', () => {
  it('are unique within each list', () => {
    for (const [name, value] of Object.entries(content) as [string, unknown][]) {
      if (!Array.isArray(value) || !value.some((item) => item && typeof item === 'object' && 'id' in item)) continue;
      const ids = value.map((item: { id?: unknown }) => item.id);
      expect(
        ids.every((id) => typeof id === 'string' && id !== ''),
        name,
      ).toBe(true);
      expect(new Set(ids).size, `${name} repeats an id`).toBe(ids.length);
    }
  });

  it('name each integration once across ESPs and MTAs, as the lower-case ids the app looks providers up by', () => {
    const ids = [...ESP_INTEGRATIONS, ...MTA_INTEGRATIONS].map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });
});

describe('plans', () => {
  it('every plan the server stores has a landing card of the same name, but Starter (documentation and the older table only)', () => {
    for (const id of PLAN_IDS.filter((plan) => plan !== 'starter')) {
      const card = PLANS.find((p) => p.id === id);
      expect(card, `no card for plan ${id}`).toBeDefined();
      expect(PLAN_LABELS[id].startsWith(card!.name)).toBe(true);
    }
  });

  it('each card shows its monthly price', () => {
    for (const plan of PLANS) {
      if (plan.priceMonthly === null) expect(plan.priceLabel).not.toMatch(/\d/);
      else expect(plan.priceLabel).toBe(`$${plan.priceMonthly}`);
    }
  });

  it('the comparison table has a column per card and agrees with its retention, domains and limitations', () => {
    const row = (feature: string) => {
      const found = COMPARISON_ROWS.find((r) => r.feature === feature);
      if (!found) throw new Error(`no comparison row ${feature}`);
      return found;
    };
    for (const plan of PLANS) {
      for (const r of COMPARISON_ROWS) expect(r[plan.id], `${r.feature} / ${plan.id}`).toBeDefined();
      expect(row('Data retention')[plan.id]).toBe(plan.retention);
      const days = /^(\d+) days$/.exec(plan.retention)?.[1];
      if (days) expect(plan.features).toContain(`${days}-day data retention`);
      const domains = row('Domains')[plan.id];
      if (plan.features.some((f) => /\bdomains?$/.test(f)))
        expect(plan.features).toContain(domains === '1' ? '1 domain' : `${domains} domains`);
      // "No API access" on a card is a "no" in the table's "API access" row.
      for (const limitation of plan.limitations) {
        const what = limitation.replace(/^No /, '').toLowerCase();
        const matching = COMPARISON_ROWS.filter((r) => r.feature.toLowerCase().startsWith(what));
        expect(
          matching.map((r) => r[plan.id]),
          limitation,
        ).toEqual([false]);
      }
    }
  });

  it('the FAQ and the guides quote the cards: names, prices and retention', () => {
    const plansGuide = guide('plans');
    for (const plan of PLANS) {
      expect(plansGuide).toContain(plan.name);
      if (plan.priceMonthly !== null) expect(plansGuide).toContain(plan.priceLabel);
      if (/^\d+ days$/.test(plan.retention)) {
        expect(faqAnswer(/keep my data/)).toContain(`${plan.retention} on the ${plan.name} plan`);
        expect(guide('retention')).toContain(`${plan.retention} on the ${plan.name} plan`);
      }
    }
    const free = PLANS.find((p) => p.priceMonthly === 0)!;
    expect(faqAnswer(/free plan/i)).toContain(`${free.priceLabel} ${free.pricePeriod}`);
    expect(faqAnswer(/free plan/i)).toContain(free.features[0]);
  });
});

describe('alerts', () => {
  it('each channel is unlocked by a plan that has a card, and every text about alerts names every channel and group', () => {
    for (const channel of ALERT_CHANNELS) expect(PLANS.map((p) => p.name)).toContain(channel.plan);
    const texts = [faqAnswer(/alerted/), guide('alerts'), FEATURES.find((f) => f.id === 'alerts')!.description];
    for (const text of texts) {
      for (const channel of ALERT_CHANNELS) expect(text.toLowerCase()).toContain(channel.name.toLowerCase());
      for (const group of ALERT_CATEGORY_GROUPS) expect(text.toLowerCase()).toContain(group.name.toLowerCase());
      expect(text).toContain(String(CLAIMS.alertCategories));
    }
  });
});

describe('integrations', () => {
  it('the FAQ and the guides name every ESP, analytics source and MTA', () => {
    const faq = faqAnswer(/email service providers/);
    for (const integration of ESP_INTEGRATIONS) {
      expect(faq).toContain(integration.name);
      expect(guide('connect-esp')).toContain(integration.name);
    }
    for (const mta of MTA_INTEGRATIONS) {
      expect(faq).toContain(mta.name);
      expect(guide('mta-webhooks')).toContain(mta.name);
    }
  });
});

describe('getting started', () => {
  it('numbers the onboarding steps 1, 2, 3… and the guide lists one line per step', () => {
    expect(ONBOARDING_STEPS.map((s) => s.step)).toEqual(ONBOARDING_STEPS.map((_, i) => i + 1));
    expect(
      guide('getting-started')
        .split('\n')
        .filter((line) => line.startsWith('- ')),
    ).toHaveLength(ONBOARDING_STEPS.length);
  });

  it('the add-domain guide names the TXT record the server checks for ownership', () => {
    expect(guide('add-domain')).toContain(ownershipRecordName('example.com'));
  });
});

describe('claims', () => {
  it('the FAQ quotes its own provider count, never the landing page one', () => {
    const faq = FAQ.map((e) => e.answer).join('\n');
    expect(faq).toContain(CLAIMS.providersFaq);
    expect(faq).not.toContain(CLAIMS.providersLanding);
    expect(FEATURES.find((f) => f.id === 'inbox-placement')!.description).toContain(CLAIMS.providersLanding);
  });

  it('the seed network has CLAIMS.regions regions, and the sample placement panel uses only those', () => {
    const named = /spans \d+ regions: ([^.]+)\./.exec(guide('inbox-test'))?.[1].split(/, (?:and )?/);
    expect(named).toHaveLength(CLAIMS.regions);
    expect(guide('inbox-test')).toContain(`spans ${CLAIMS.regions} regions`);
    for (const row of SAMPLE_PLACEMENT) {
      expect(named).toContain(row.region);
      expect(row.inboxPercent).toBeGreaterThanOrEqual(0);
      expect(row.inboxPercent).toBeLessThanOrEqual(100);
    }
    const pairs = SAMPLE_PLACEMENT.map((r) => `${r.provider} / ${r.region}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });
});

describe('company', () => {
  it('support and sales addresses are on the product domain, and the FAQ and support guide give both', () => {
    const domain = new RegExp(`^[^@\\s]+@${COMPANY.productName.toLowerCase()}\\.[a-z]+$`);
    expect(COMPANY.supportEmail).toMatch(domain);
    expect(COMPANY.salesEmail).toMatch(domain);
    for (const text of [faqAnswer(/contact/), guide('support')]) {
      expect(text).toContain(COMPANY.supportEmail);
      expect(text).toContain(COMPANY.salesEmail);
    }
  });
});
