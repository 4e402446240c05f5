/** An OpenAI-compatible chat-completions endpoint (CHAT_LLM_URL, CHAT_LLM_API_KEY, CHAT_LLM_MODEL). */
export interface LlmConfig {
  url: string;
  apiKey: string;
  model: string;
}

const TIMEOUT_MS = 15_000;

/** Sends the messages and returns the reply text; throws on any failure so the caller can fall back. */
export async function completeChat(
  config: LlmConfig,
  messages: { role: 'system' | 'user'; content: string }[],
): Promise<string> {
  const res = await fetch(`${config.url.replace(/\/$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${config.apiKey}` },
    body: JSON.stringify({ model: config.model, messages, temperature: 0.2, max_tokens: 500 }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`LLM answered ${res.status}`);
  const body = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) throw new Error('LLM reply had no text');
  return content.trim();
}
