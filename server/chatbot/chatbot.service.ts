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
  'If they do not answer it, say so and list what you can help with. Be brief; plain text, "- " for lists.';

export function createChatbot(options: { llm?: LlmConfig; log: Logger }) {
  const retriever = createRetriever(buildKnowledge());

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
      const facts = passages.map((p, i) => `[${i + 1}] ${p.doc.title}\n${p.doc.text}`).join('\n\n');
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
