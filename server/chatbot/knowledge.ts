import { COMPANY, ESP_INTEGRATIONS, FAQ, FEATURES, GUIDES, MTA_INTEGRATIONS, PLANS } from '@content/index';

/** One passage the assistant can find and quote. `keywords` adds words people ask with. */
export interface KnowledgeDoc {
  id: string;
  title: string;
  text: string;
  keywords: string;
}

const list = (items: string[]) => items.map((i) => `- ${i}`).join('\n');

/** The product's own knowledge, from the same content the landing page shows (content/). */
export function buildKnowledge(): KnowledgeDoc[] {
  const espNames = ESP_INTEGRATIONS.map((e) => e.name);
  const mtaNames = MTA_INTEGRATIONS.map((m) => m.name);
  return [
    ...FAQ.map((f, i) => ({ id: `faq-${i}`, title: f.question, text: f.answer, keywords: 'faq' })),
    ...GUIDES.map((g) => ({ id: `guide-${g.id}`, title: g.title, text: g.text, keywords: 'how to setup set up guide' })),
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
    ...FEATURES.map((f) => ({ id: `feature-${f.id}`, title: f.title, text: f.description, keywords: 'feature features capability' })),
    {
      id: 'esp-list',
      title: 'Supported email service providers (ESPs)',
      text: `InboxPulse connects to these email service providers and analytics sources:\n${list(
        ESP_INTEGRATIONS.map((e) => `${e.name}${e.category === 'analytics' ? ' (analytics)' : ''}`),
      )}\nConnect one on the Integrations page with its API key.`,
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
}
