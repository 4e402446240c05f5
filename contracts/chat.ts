import { z } from 'zod';
import { text } from './input';

export const CHAT_MAX_LENGTH = 500;

export const ChatRequest = z.object({
  message: text('Message', CHAT_MAX_LENGTH, { trim: true, required: 'Message is required' }).min(
    1,
    'Message is required',
  ),
});

export const ChatResponse = z.object({ response: z.string() });
export type ChatResponse = z.infer<typeof ChatResponse>;
