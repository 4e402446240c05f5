import type { Integration as Plugin } from '@content/integrations';
import { primarySecretField } from '@contracts/integrations';
import { decryptSecret, encryptSecret } from '../platform/security/secret-box';

/*
 * A plugin's secret fields (API keys, tokens) as one JSON object sealed with the secret box
 * (AES-256-GCM under APP_SECRET). They are opened only to call the provider and to show the last
 * characters of the key; they are never returned, logged or put in an error message.
 */

export function sealSecrets(secrets: Record<string, string>, appSecret: string): string {
  return encryptSecret(JSON.stringify(secrets), appSecret);
}

/** The secret fields; throws SecretBoxError when the box cannot be opened (another APP_SECRET, an altered value). */
export function openSecrets(box: string | null, appSecret: string): Record<string, string> {
  if (!box) return {};
  const value: unknown = JSON.parse(decryptSecret(box, appSecret));
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** A key's shortest length whose last 4 characters may be shown: shorter ones show nothing of themselves. */
const PREVIEW_MIN_LENGTH = 16;

/** "…abcd": the last 4 characters of the plugin's key, enough to tell which key is stored. */
export function keyPreview(plugin: Plugin | undefined, secrets: Record<string, string>): string | null {
  const field = plugin ? primarySecretField(plugin) : undefined;
  const key = field ? secrets[field.key] : undefined;
  if (!key) return null;
  // The OAuth client JSON ends in "}": its client id says which one it is, but that is not a key's tail.
  if (field?.format === 'json') return '…(OAuth client)';
  return key.length >= PREVIEW_MIN_LENGTH ? `…${key.slice(-4)}` : '…';
}
