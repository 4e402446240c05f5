import MiniSearch from 'minisearch';
import type { KnowledgeDoc } from './knowledge';

// Words that carry no topic: without this list "how do I ..." would match every guide.
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could do does did for from had has have how i if in into is it its me my of on or our ' +
    'please should so than that the their them then there these they this to us was we what when where which who why will with ' +
    'would you your yours tell about any get got want need know much many there here today now currently'
  ).split(' '),
);

// People ask with words the product texts do not use; each adds the words the texts do use.
const SYNONYMS: Record<string, string> = {
  refund: 'money-back guarantee',
  refunds: 'money-back guarantee',
  cancel: 'cancel money-back plan changes',
  trial: 'free plan',
  blocklist: 'blacklist',
  blocklists: 'blacklists',
  spam: 'spam inbox placement',
  deliverability: 'deliverability inbox placement',
};

const expand = (question: string) =>
  question
    .split(/\s+/)
    .map((w) => {
      const key = w.toLowerCase().replace(/[^a-z]/g, '');
      return SYNONYMS[key] ? `${w} ${SYNONYMS[key]}` : w;
    })
    .join(' ');

export interface Passage {
  doc: KnowledgeDoc;
  score: number;
}

/** A full-text index over the product knowledge, built once at start-up. */
export function createRetriever(docs: KnowledgeDoc[]) {
  const index = new MiniSearch<KnowledgeDoc>({
    fields: ['title', 'text', 'keywords'],
    storeFields: ['id'],
    processTerm: (term) => {
      const t = term.toLowerCase();
      return STOP_WORDS.has(t) || t.length < 2 ? null : t;
    },
    searchOptions: {
      boost: { title: 3, keywords: 2 },
      fuzzy: (term) => (term.length > 5 ? 0.2 : false),
      prefix: (term) => term.length > 3,
    },
  });
  index.addAll(docs);
  const byId = new Map(docs.map((d) => [d.id, d]));

  return {
    /** The best passages for a question, strongest first; empty when nothing relevant matches. */
    search(question: string, limit = 3): Passage[] {
      return index
        .search(expand(question))
        .slice(0, limit)
        .map((r) => ({ doc: byId.get(r.id as string)!, score: r.score }));
    },
  };
}

export type Retriever = ReturnType<typeof createRetriever>;
