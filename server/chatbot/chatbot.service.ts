import type { Logger } from 'pino';
import { COMPANY } from '@content/index';
import { buildKnowledge } from './knowledge';
import { completeChat, type LlmConfig } from './llm-client';
import { createRetriever, type Passage } from './retrieval';

// Below this BM25 score a match is a stray word, not an answer (calibrated on chatbot.test.ts).
const MIN_SCORE = 6;
// A second passage is quoted when it is nearly as relevant as the first.
const SECOND_PASSAGE_RATIO = 0.85;

export const OFF_TOPIC_REPLY =
  'I can help with questions about InboxPulse: plans and pricing, features, setting up domains and inbox placement tests, ' +
  `integrations with ESPs and MTAs, alerts and the product's limits. I don't have an answer to that one; ` +
  `for anything else our team is at ${COMPANY.supportEmail}.`;

const SYSTEM_PROMPT =
  'You are the InboxPulse assistant on the product website. Answer the question using only the facts given. ' +
  'Some screens are still being built: never describe something the facts say is not available yet as usable; say so, and what works today. ' +
  'If the facts do not answer the question, say so and list what you can help with. Be brief; plain text, "- " for lists.';

/** The passage that says which screens are built: always among the model's facts (knowledge.ts). */
const PRODUCT_TODAY = 'product-today';

export function createChatbot(options: { llm?: LlmConfig; log: Logger }) {
  const knowledge = buildKnowledge();
  const retriever = createRetriever(knowledge);
  const productToday = knowledge.find((doc) => doc.id === PRODUCT_TODAY)!;

  function retrievalAnswer(passages: Passage[]): string {
    const [top, second] = passages;
    const quoted = second && second.score >= top.score * SECOND_PASSAGE_RATIO ? [top, second] : [top];
    return quoted.map((p) => p.doc.text).join('\n\n');
  }

  return {
    async reply(question: string): Promise<string> {
      const passages = retriever.search(question).filter((p) => p.score >= MIN_SCORE);
      if (passages.length === 0) return OFF_TOPIC_REPLY;
      const fallback = retrievalAnswer(passages);
      if (!options.llm) return fallback;
      const factDocs = passages.map((p) => p.doc);
      if (!factDocs.includes(productToday)) factDocs.push(productToday);
      const facts = factDocs.map((doc, i) => `[${i + 1}] ${doc.title}\n${doc.text}`).join('\n\n');
      try {
        return await completeChat(options.llm, [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: `Facts:\n${facts}\n\nQuestion: ${question}` },
        ]);
      } catch (err) {
        options.log.warn({ err: (err as Error).message }, 'chat LLM failed; answering from retrieval');
        return fallback;
      }
    },
  };
}
