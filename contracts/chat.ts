import { z } from 'zod';

export const CHAT_MAX_LENGTH = 500;

export const ChatRequest = z.object({
  message: z.string({ error: 'Message is required' }).trim().min(1, 'Message is required').max(CHAT_MAX_LENGTH, 'Message must be at most 500 characters'),
});

export const ChatResponse = z.object({ response: z.string() });
export type ChatResponse = z.infer<typeof ChatResponse>;
