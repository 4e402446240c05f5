import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ChatRequest, ChatResponse } from '@contracts/chat';
import type { AppContext } from '../platform/context';
import { enforceRateLimit, RATE_RULES } from '../platform/security/rate-limit';
import { createChatbot } from './chatbot.service';

export async function chatbotRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { CHAT_LLM_URL: url, CHAT_LLM_API_KEY: apiKey, CHAT_LLM_MODEL: model } = ctx.env;
  const chatbot = createChatbot({ llm: url && apiKey && model ? { url, apiKey, model } : undefined, log: ctx.log });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/chatbot', { schema: { body: ChatRequest, response: { 200: ChatResponse } } }, async (request) => {
    await enforceRateLimit(ctx.db, RATE_RULES.chatPerIp, request.ip);
    return { response: await chatbot.reply(request.body.message) };
  });
}
