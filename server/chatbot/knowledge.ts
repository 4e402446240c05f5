import { COMPANY, ESP_INTEGRATIONS, FAQ, FEATURES, GUIDES, MTA_INTEGRATIONS, PLANS } from '@content/index';
import { SCREENS, type Screen, type ScreenId } from '@content/screens';

/** One passage the assistant can find and quote. `keywords` adds words people ask with. */
export interface KnowledgeDoc {
  id: string;
  title: string;
  text: string;
  keywords: string;
}

export type ScreenList = Record<ScreenId, Screen>;

const list = (items: string[]) => items.map((i) => `- ${i}`).join('\n');

/*
 * The assistant answers from what the product does today. content/ describes the product as the
 * spec does, screens that are still being built included; content/screens.ts says which are built.
 * A how-to whose screen is not built is replaced by a passage saying so and what works today; any
 * other passage about such a screen (a plan, a feature, an integration) keeps its facts and says
 * that the screen is not available yet. Links to unbuilt pages are left out.
 */

/** How-to guides that cannot be followed until these screens exist, with the topic they teach. */
const GUIDES_NEEDING: Record<string, { screens: ScreenId[]; topic: string }> = {
  'connect-esp': { screens: ['integrations'], topic: 'Connecting an email service provider (ESP)' },
  'mta-webhooks': { screens: ['integrations', 'mtaIntegration'], topic: 'Connecting a mail transfer agent (MTA)' },
  alerts: { screens: ['alerts'], topic: 'Choosing alert types, thresholds and channels' },
  blacklists: { screens: ['reputation', 'blacklistMonitoring'], topic: 'Reputation and blacklist monitoring' },
  api: { screens: ['apiDocs'], topic: 'The REST API' },
};

/** Other passages that name a screen not built yet: they keep their facts and say so. */
const PASSAGES_NEEDING: Record<string, ScreenId[]> = {
  'guide-getting-started': ['integrations'],
  'guide-plans': ['pricing', 'checkout', 'subscription'],
  'plans-overview': ['pricing', 'checkout', 'subscription'],
  'plan-professional': ['pricing', 'checkout', 'subscription'],
  'plan-enterprise': ['pricing', 'subscription'],
  'feature-reputation': ['reputation', 'blacklistMonitoring'],
  'feature-alerts': ['alerts'],
  'feature-integrations': ['integrations'],
  'feature-api': ['apiDocs'],
  'esp-list': ['integrations'],
  'mta-list': ['integrations'],
};
const ESP_AND_MTA_NEED: ScreenId[] = ['integrations'];

/** FAQ answers, by question, that name a screen not built yet. */
export const FAQ_NEEDING: Record<string, ScreenId[]> = {
  'What is InboxPulse?': ['reputation', 'blacklistMonitoring', 'alerts'],
  'How long does setup take?': ['integrations'],
  'Can I change my plan later?': ['subscription'],
  'Do you offer annual billing?': ['pricing', 'checkout'],
  'Which email service providers do you integrate with?': ['integrations'],
  'How will I be alerted about problems?': ['alerts'],
  'Do you have an API?': ['apiDocs'],
};

/** Site paths written in running text ("/register;", "(/api-docs)"), not "ESP/MTA" or "$49/month". */
const SITE_PATH = /(?<![\w./:<>-])\/[a-z][a-z0-9-]*(?:\/[a-z0-9-]+)*/g;

export function buildKnowledge(screens: ScreenList = SCREENS): KnowledgeDoc[] {
  const missing = (ids: ScreenId[]) => ids.map((id) => screens[id]).filter((screen) => !screen.live);
  const names = (items: Screen[]) =>
    joinWords(items.map((s) => `the ${s.name} ${s.area === 'app' ? 'screen' : 'page'}`));
  const livePaths = new Set(
    Object.values(screens)
      .filter((s) => s.live)
      .map((s) => s.path),
  );
  const appScreens = Object.values(screens).filter((s) => s.area === 'app' && s.path !== '/');
  const today = list(appScreens.filter((s) => s.live).map((s) => `${s.name}: ${s.does}.`));

  /** Sentences that send the reader to a page that is not built are left out. */
  const withoutDeadLinks = (text: string) =>
    text
      .split('\n')
      .map((line) =>
        line
          .split(/(?<=\.)\s+/)
          .filter((sentence) => (sentence.match(SITE_PATH) ?? []).every((path) => livePaths.has(path)))
          .join(' '),
      )
      .filter((line) => line.trim() !== '')
      .join('\n');

  const notYet = (items: Screen[]) =>
    `Not available in InboxPulse yet: ${names(items)} ${items.length === 1 ? 'is' : 'are'} still being built (to ${joinWords(items.map((s) => s.does))}).`;

  /** A passage about screens: its facts, then what is not available yet, when something is not. */
  const noted = (doc: KnowledgeDoc, needs: ScreenId[] = []): KnowledgeDoc => {
    const notBuilt = missing(needs);
    const text = withoutDeadLinks(doc.text);
    return { ...doc, text: notBuilt.length ? `${text}\n${notYet(notBuilt)}` : text };
  };

  /** A how-to that cannot be followed yet: what it would teach is not available, and what is. */
  const unfollowable = (doc: KnowledgeDoc): KnowledgeDoc | undefined => {
    const needs = doc.id.startsWith('guide-') ? GUIDES_NEEDING[doc.id.slice('guide-'.length)] : undefined;
    const notBuilt = needs ? missing(needs.screens) : [];
    if (!needs || notBuilt.length === 0) return undefined;
    return {
      ...doc,
      text: `${needs.topic} is not available in InboxPulse yet: ${names(notBuilt)} ${notBuilt.length === 1 ? 'is' : 'are'} still being built.\nWhat you can do in InboxPulse today:\n${today}`,
    };
  };

  const needsOf = (doc: KnowledgeDoc): ScreenId[] | undefined =>
    PASSAGES_NEEDING[doc.id] ??
    (doc.id.startsWith('faq-') ? FAQ_NEEDING[doc.title] : /^(esp|mta)-/.test(doc.id) ? ESP_AND_MTA_NEED : undefined);

  const espNames = ESP_INTEGRATIONS.map((e) => e.name);
  const mtaNames = MTA_INTEGRATIONS.map((m) => m.name);
  const docs: KnowledgeDoc[] = [
    {
      id: 'product-today',
      title: 'What works in InboxPulse today',
      text: `What you can do in InboxPulse today:\n${today}\nComing soon (not available yet):\n${list(
        appScreens.filter((s) => !s.live).map((s) => `${s.name}: to ${s.does}.`),
      )}`,
      keywords:
        'available live ready working works use coming soon later roadmap not yet built unavailable screens pages beta',
    },
    ...FAQ.map((f, i) => ({ id: `faq-${i}`, title: f.question, text: f.answer, keywords: 'faq' })),
    ...GUIDES.map((g) => ({
      id: `guide-${g.id}`,
      title: g.title,
      text: g.text,
      keywords: 'how to setup set up guide',
    })),
    {
      id: 'plans-overview',
      title: 'Plans and pricing',
      text: `${PLANS.map((p) => `${p.name}: ${p.priceLabel} ${p.pricePeriod}. ${p.description}`).join('\n')}`,
      keywords: 'price prices pricing cost costs plans plan subscription paid cheap expensive monthly',
    },
    ...PLANS.map((p) => ({
      id: `plan-${p.id}`,
      title: `${p.name} plan`,
      text:
        `${p.name} plan: ${p.priceLabel} ${p.pricePeriod}. ${p.description}\nIncludes:\n${list(p.features)}` +
        (p.limitations.length ? `\nNot included:\n${list(p.limitations)}` : '') +
        `\nData retention: ${p.retention}.`,
      keywords: `price pricing cost limits limit included includes ${p.id} tier`,
    })),
    ...FEATURES.map((f) => ({
      id: `feature-${f.id}`,
      title: f.title,
      text: f.description,
      keywords: 'feature features capability',
    })),
    {
      id: 'esp-list',
      title: 'Supported email service providers (ESPs)',
      text: `InboxPulse connects to these email service providers and analytics sources:\n${list(
        ESP_INTEGRATIONS.map((e) => `${e.name}${e.category === 'analytics' ? ' (analytics)' : ''}`),
      )}${screens.integrations.live ? '\nConnect one on the Integrations page with its API key.' : ''}`,
      keywords: `esp esps integrations integration providers connect supported ${espNames.join(' ')}`,
    },
    ...ESP_INTEGRATIONS.map((e) => ({
      id: `esp-${e.id}`,
      title: `${e.name} integration`,
      text: `${e.name}: ${e.description}`,
      keywords: 'integration esp connect',
    })),
    {
      id: 'mta-list',
      title: 'Supported mail transfer agents (MTAs)',
      text: `InboxPulse works with these MTAs through webhooks:\n${list(mtaNames)}`,
      keywords: `mta mtas mail transfer agent server own infrastructure ${mtaNames.join(' ')}`,
    },
    ...MTA_INTEGRATIONS.map((m) => ({
      id: `mta-${m.id}`,
      title: `${m.name} integration`,
      text: `${m.name}: ${m.description}`,
      keywords: 'mta integration webhook',
    })),
    {
      id: 'contact',
      title: 'Contact, support and company',
      text: `Support: ${COMPANY.supportEmail}. Sales: ${COMPANY.salesEmail}. ${COMPANY.productName} is operated by ${COMPANY.legalEntity}, ${COMPANY.postalAddress}.`,
      keywords: 'contact support help email sales company address phone reach human talk',
    },
  ];
  return docs.map((doc) => unfollowable(doc) ?? noted(doc, needsOf(doc)));
}

function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
