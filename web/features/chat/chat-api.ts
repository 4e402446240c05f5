import { apiRequest } from '../../lib/api-client';
import { CHAT_ENDPOINT, EMPTY_REPLY_MESSAGE } from './chat-texts';

/**
 * POST /api/chatbot {message} -> {response} (part 1, section 7). An empty or missing reply becomes
 * the friendly help line; a failed call throws (the panel shows the failure message).
 */
export async function askAssistant(message: string): Promise<string> {
  const res = await apiRequest('POST', CHAT_ENDPOINT, { message });
  const data: unknown = await res.json();
  const reply = data && typeof data === 'object' ? (data as { response?: unknown }).response : undefined;
  return typeof reply === 'string' && reply.trim() ? reply.trim() : EMPTY_REPLY_MESSAGE;
}
