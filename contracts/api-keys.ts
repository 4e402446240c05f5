import { z } from 'zod';

/**
 * API keys and webhook tokens (part 2, sections 3 and 7): one of each per user, stored only as a
 * SHA-256 hash; the full value is in the generate/regenerate answer and nowhere else afterwards.
 */

/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs) and its kind is plain. */
export const API_KEY_PREFIX = 'ipk_';
export const WEBHOOK_TOKEN_PREFIX = 'iwt_';

/** GET /api/api-keys/status. keyPreview: the prefix and the first characters, e.g. "ipk_3fA9…". */
export const ApiKeyStatus = z.object({
  hasApiKey: z.boolean(),
  keyPreview: z.string().nullable(),
  createdAt: z.string().nullable(),
  /** When a request last authenticated with it (to the minute); null when never. */
  lastUsedAt: z.string().nullable(),
});
export type ApiKeyStatus = z.infer<typeof ApiKeyStatus>;

/** POST /api/api-keys/generate and /regenerate: the only answer that carries the whole key. */
export const GeneratedApiKey = z.object({
  apiKey: z.string(),
  keyPreview: z.string(),
  createdAt: z.string(),
});
export type GeneratedApiKey = z.infer<typeof GeneratedApiKey>;

/** GET /api/webhook-tokens/status. */
export const WebhookTokenStatus = z.object({
  hasToken: z.boolean(),
  tokenPreview: z.string().nullable(),
  createdAt: z.string().nullable(),
});
export type WebhookTokenStatus = z.infer<typeof WebhookTokenStatus>;

/** POST /api/webhook-tokens/generate and /regenerate: the only answer that carries the whole token. */
export const GeneratedWebhookToken = z.object({
  token: z.string(),
  tokenPreview: z.string(),
  createdAt: z.string(),
});
export type GeneratedWebhookToken = z.infer<typeof GeneratedWebhookToken>;

/** The spec's error texts (part 2, section 8). */
export const API_KEY_ERRORS = {
  generate: 'Failed to generate API key. Please try again.',
  regenerate: 'Failed to regenerate API key. Please try again.',
  revoke: 'Failed to revoke API key. Please try again.',
  generateToken: 'Failed to generate webhook token. Please try again.',
  regenerateToken: 'Failed to regenerate webhook token. Please try again.',
  revokeToken: 'Failed to revoke webhook token. Please try again.',
} as const;
