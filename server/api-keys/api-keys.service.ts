import {
  API_KEY_PREFIX,
  WEBHOOK_TOKEN_PREFIX,
  type ApiKeyStatus,
  type GeneratedApiKey,
  type GeneratedWebhookToken,
  type WebhookTokenStatus,
} from '@contracts/api-keys';
import type { Db, Executor } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { forgetCachedApiKey } from '../platform/http/api-key-auth';
import { hashToken, newToken } from '../platform/security/tokens';
import {
  deleteApiKey,
  deleteWebhookToken,
  findApiKey,
  findWebhookToken,
  findWebhookTokenOwner,
  insertApiKey,
  insertWebhookToken,
  replaceApiKey,
  replaceWebhookToken,
  type NewSecret,
} from './api-keys.repo';

export const API_KEY_MESSAGES = {
  exists: 'You already have an API key: regenerate it to get a new one',
  none: 'You have no API key',
  revoked: 'API key revoked',
  tokenExists: 'You already have a webhook token: regenerate it to get a new one',
  noToken: 'You have no webhook token',
  tokenRevoked: 'Webhook token revoked',
} as const;

/** How many characters after the prefix a preview shows: enough to tell two keys apart, nothing to guess with. */
const PREVIEW_CHARACTERS = 4;

/** A new secret: the prefix and 256 random bits. Its SHA-256 and preview are all that is stored. */
function newSecret(prefix: string): { value: string; stored: NewSecret } {
  const value = prefix + newToken();
  return {
    value,
    stored: { hash: hashToken(value), preview: `${value.slice(0, prefix.length + PREVIEW_CHARACTERS)}…` },
  };
}

export async function apiKeyStatus(db: Db, userId: number): Promise<ApiKeyStatus> {
  const row = await findApiKey(db, userId);
  return {
    hasApiKey: row !== undefined,
    keyPreview: row?.keyPreview ?? null,
    createdAt: row?.createdAt.toISOString() ?? null,
    lastUsedAt: row?.lastUsedAt?.toISOString() ?? null,
  };
}

export async function generateApiKey(db: Db, userId: number): Promise<GeneratedApiKey> {
  const key = newSecret(API_KEY_PREFIX);
  const row = await insertApiKey(db, userId, key.stored);
  if (!row) throw new AppError('conflict', API_KEY_MESSAGES.exists);
  return { apiKey: key.value, keyPreview: row.keyPreview, createdAt: row.createdAt.toISOString() };
}

/** A new key in place of the old one, which is refused from this moment in every process. */
export async function regenerateApiKey(db: Db, userId: number): Promise<GeneratedApiKey> {
  const key = newSecret(API_KEY_PREFIX);
  const { row, replacedHash } = await replaceApiKey(db, userId, key.stored);
  if (replacedHash) forgetCachedApiKey(db, replacedHash);
  return { apiKey: key.value, keyPreview: row.keyPreview, createdAt: row.createdAt.toISOString() };
}

export async function revokeApiKey(db: Db, userId: number): Promise<void> {
  const keyHash = await deleteApiKey(db, userId);
  if (!keyHash) throw new AppError('not_found', API_KEY_MESSAGES.none);
  forgetCachedApiKey(db, keyHash);
}

export async function webhookTokenStatus(db: Db, userId: number): Promise<WebhookTokenStatus> {
  const row = await findWebhookToken(db, userId);
  return {
    hasToken: row !== undefined,
    tokenPreview: row?.tokenPreview ?? null,
    createdAt: row?.createdAt.toISOString() ?? null,
  };
}

export async function generateWebhookToken(db: Db, userId: number): Promise<GeneratedWebhookToken> {
  const token = newSecret(WEBHOOK_TOKEN_PREFIX);
  const row = await insertWebhookToken(db, userId, token.stored);
  if (!row) throw new AppError('conflict', API_KEY_MESSAGES.tokenExists);
  return { token: token.value, tokenPreview: row.tokenPreview, createdAt: row.createdAt.toISOString() };
}

export async function regenerateWebhookToken(db: Db, userId: number): Promise<GeneratedWebhookToken> {
  const token = newSecret(WEBHOOK_TOKEN_PREFIX);
  const row = await replaceWebhookToken(db, userId, token.stored);
  return { token: token.value, tokenPreview: row.tokenPreview, createdAt: row.createdAt.toISOString() };
}

export async function revokeWebhookToken(db: Db, userId: number): Promise<void> {
  if (!(await deleteWebhookToken(db, userId))) throw new AppError('not_found', API_KEY_MESSAGES.noToken);
}

/**
 * Revokes the user's API key and webhook token inside the caller's transaction (a password reset or change), and
 * returns what to do once it commits: drop the key from this process's cache. `revoked` says whether there was
 * anything to revoke.
 */
export async function revokeApiAccess(
  tx: Executor,
  userId: number,
): Promise<{ revoked: boolean; forget(db: Db): void }> {
  const keyHash = await deleteApiKey(tx, userId);
  const token = await deleteWebhookToken(tx, userId);
  return {
    revoked: keyHash !== undefined || token,
    forget: (db) => keyHash && forgetCachedApiKey(db, keyHash),
  };
}

/** The user a webhook token belongs to (the MTA event endpoints' `Authorization: Bearer iwt_...`); undefined for none. */
export async function webhookTokenOwner(db: Db, token: string): Promise<number | undefined> {
  if (!token.startsWith(WEBHOOK_TOKEN_PREFIX)) return undefined;
  return findWebhookTokenOwner(db, hashToken(token));
}
