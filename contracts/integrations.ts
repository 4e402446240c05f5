import { z } from 'zod';
import {
  PLUGIN_IDS,
  pluginById,
  type Integration as Plugin,
  type PluginField,
  type PluginFieldFormat,
} from '../content/integrations';
import { IdParams, text } from './input';

/*
 * ESP plugins (part 2, sections 2, 3, 5 and 7): the catalogue lives in content/integrations.ts; these
 * are the calls on it. Config values are checked here against the plugin's fields, so the install
 * dialog and the server refuse the same things with the same words.
 */

export const IntegrationStatus = z.enum(['active', 'inactive', 'error']);
export type IntegrationStatus = z.infer<typeof IntegrationStatus>;

export const PluginIdSchema = z.enum(PLUGIN_IDS, { error: `Plugin must be one of ${PLUGIN_IDS.join(', ')}` });

/** The longest value a config field takes (the OAuth client JSON is the longest real one, about 400 characters). */
export const CONFIG_VALUE_MAX = 4096;
const CONFIG_KEYS_MAX = 10;

/** What a caller sends as a plugin's config: field name to text, bounded. Which fields a plugin takes is checked by pluginConfigProblems. */
export const PluginConfigInput = z
  .record(z.string().max(40, 'Config field names are at most 40 characters'), text('Config values', CONFIG_VALUE_MAX), {
    error: 'Config must be an object of field names and text values',
  })
  .refine((config) => Object.keys(config).length <= CONFIG_KEYS_MAX, `Config has at most ${CONFIG_KEYS_MAX} fields`);
export type PluginConfigInput = z.infer<typeof PluginConfigInput>;

const HOST_LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^(?=.{1,253}$)(?:${HOST_LABEL}\\.)+[a-z][a-z0-9-]{0,62}$`);

/** The host a `host` field names: "youraccount.api-us1.com" from "https://youraccount.api-us1.com/" or the bare name. Undefined when it names none. */
export function hostOfField(value: string): string | undefined {
  const trimmed = value.trim().toLowerCase();
  let host = trimmed;
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(trimmed)) {
    if (!URL.canParse(trimmed)) return undefined;
    const url = new URL(trimmed);
    // A user's API host is always HTTPS on the default port: anything else is not the provider.
    if (url.protocol !== 'https:' || url.port !== '' || url.username || url.password) return undefined;
    host = url.hostname;
  }
  host = host.replace(/\/+$/, '');
  return DOMAIN.test(host) ? host : undefined;
}

const FORMAT_CHECKS: Record<PluginFieldFormat, (value: string) => boolean> = {
  secret: (value) => /^[\x21-\x7e]{8,4096}$/.test(value),
  'https-url': (value) => URL.canParse(value) && new URL(value).protocol === 'https:' && value.length <= 2000,
  datacenter: (value) => /^[a-z]{2,4}\d{1,3}$/.test(value),
  domain: (value) => DOMAIN.test(value.toLowerCase()),
  host: (value) => hostOfField(value) !== undefined,
  region: (value) => /^(us|eu)$/i.test(value),
  'site-id': (value) => /^[A-Za-z0-9]{6}$/.test(value),
  json: (value) => {
    try {
      const parsed: unknown = JSON.parse(value);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    } catch {
      return false;
    }
  },
  text: (value) => value.length <= 200 && !/[\r\n]/.test(value),
};

const FORMAT_WORDS: Record<PluginFieldFormat, string> = {
  secret: 'must be at least 8 characters, without spaces',
  'https-url': 'must be an https:// URL',
  datacenter: 'must be a server prefix such as us21',
  domain: 'must be a domain name such as example.com',
  host: 'must be a host name such as youraccount.api-us1.com, or its https:// URL',
  region: 'must be us or eu',
  'site-id': 'must be the 6-character public key',
  json: 'must be a JSON object',
  text: 'must be one line of at most 200 characters',
};

/**
 * What is wrong with `config` for `plugin`, one sentence per problem (empty when nothing is). With
 * `keepSecrets` (an update) a secret field left out or empty keeps its stored value, so it is not
 * missing. Values are trimmed; empty optional fields count as not given.
 */
export function pluginConfigProblems(
  plugin: Plugin,
  config: Record<string, string>,
  options: { keepSecrets?: boolean } = {},
): string[] {
  const problems: string[] = [];
  const known = new Set(plugin.fields.map((f) => f.key as string));
  for (const key of Object.keys(config))
    if (!known.has(key)) problems.push(`${plugin.name} has no config field "${key.slice(0, 40)}"`);
  for (const field of plugin.fields) {
    const value = config[field.key]?.trim() ?? '';
    if (value === '') {
      if (field.required && !(field.secret && options.keepSecrets)) problems.push(`${field.label} is required`);
      continue;
    }
    if (!FORMAT_CHECKS[field.format](value)) problems.push(`${field.label} ${FORMAT_WORDS[field.format]}`);
  }
  return problems;
}

/** The plugin's fields split into what is stored encrypted and what is shown back; empty values are left out. */
export function splitPluginConfig(
  plugin: Plugin,
  config: Record<string, string>,
): { secrets: Record<string, string>; settings: Record<string, string> } {
  const secrets: Record<string, string> = {};
  const settings: Record<string, string> = {};
  for (const field of plugin.fields) {
    const value = config[field.key]?.trim();
    if (!value) continue;
    (field.secret ? secrets : settings)[field.key] =
      field.format === 'region' || field.format === 'domain' ? value.toLowerCase() : value;
  }
  return { secrets, settings };
}

/** The secret field whose last characters the list shows (the API key, Klaviyo's private key, the OAuth JSON). */
export function primarySecretField(plugin: Plugin): PluginField | undefined {
  return plugin.fields.find((f) => f.secret);
}

/** `{ pluginId, config }`: config is checked against the plugin's fields, with a 400 naming each problem. */
function checkPluginConfig(body: { pluginId: string; config: Record<string, string> }, ctx: z.RefinementCtx): void {
  const plugin = pluginById(body.pluginId);
  if (!plugin) return;
  for (const problem of pluginConfigProblems(plugin, body.config))
    ctx.addIssue({ code: 'custom', path: ['config'], message: problem });
}

/** POST /api/integrations/test. */
export const TestConnectionBody = z
  .object({ pluginId: PluginIdSchema, config: PluginConfigInput })
  .superRefine(checkPluginConfig);
export type TestConnectionBody = z.infer<typeof TestConnectionBody>;

/** The answer to a connection test: `error` is what the provider said when it refused, in its own words. */
export const TestConnectionResult = z.object({
  success: z.boolean(),
  error: z.string().nullable(),
});
export type TestConnectionResult = z.infer<typeof TestConnectionResult>;

/** POST /api/integrations. `provider` is what the original client sent beside the id; the plugin id decides. */
export const InstallIntegrationBody = z
  .object({
    pluginId: PluginIdSchema,
    config: PluginConfigInput,
    provider: text('Provider', 100).optional(),
  })
  .superRefine(checkPluginConfig);
export type InstallIntegrationBody = z.infer<typeof InstallIntegrationBody>;

/**
 * PATCH /api/integrations/:id. `config` replaces the non-secret fields it names; a secret field left
 * out or empty keeps the stored one. `enabled: false` pauses syncing (status inactive).
 */
export const UpdateIntegrationBody = z.object({
  config: PluginConfigInput.optional(),
  enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
});
export type UpdateIntegrationBody = z.infer<typeof UpdateIntegrationBody>;

export const IntegrationIdParams = IdParams('Integration id');

export const UninstallQuery = z.object({
  /** Keep the daily figures the plugin synced (they are deleted with it by default). */
  keepMetrics: z.enum(['true', 'false'], { error: 'keepMetrics must be true or false' }).optional(),
});

/** An installed integration, with the figures of its synced email metrics over the last 30 days. */
export const Integration = z.object({
  id: z.number().int(),
  provider: z.string(),
  /** The catalogue's name ("SendGrid"); the provider id for integrations outside the catalogue (MTAs). */
  name: z.string(),
  type: z.enum(['esp', 'analytics', 'mta']),
  status: IntegrationStatus,
  lastSync: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  emailsSent: z.number().int(),
  /** Delivered / sent over 30 days, in percent; null when nothing was sent. */
  deliveryRate: z.number().nullable(),
  /** How many days of metrics were synced. */
  dataPoints: z.number().int(),
  /** The non-secret config fields as saved (server prefix, domain, store...). */
  config: z.record(z.string(), z.string()),
  /** The last characters of the stored key ("…abcd"); null when none is stored. The key itself is never returned. */
  keyPreview: z.string().nullable(),
  /** Whether syncs import daily statistics, or only check the connection. */
  dailyStats: z.boolean(),
  /** The last failed sync's error, in the provider's words, until a sync succeeds. */
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  /** Not before this time does the next scheduled sync run (a provider's Retry-After or the back-off after failures); null: at the next hourly round. */
  nextSyncAt: z.string().nullable(),
});
export type Integration = z.infer<typeof Integration>;
export const IntegrationList = z.array(Integration);

/** The answer to POST /api/integrations/:id/sync: the sync was queued and runs in the background. */
export const SyncQueued = z.object({ message: z.string(), integration: Integration });
export type SyncQueued = z.infer<typeof SyncQueued>;

const count = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must not be negative`)
    .max(1e9);
const rate = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .min(0, `${name} must be a percentage from 0 to 100`)
    .max(100, `${name} must be a percentage from 0 to 100`);

/**
 * POST /api/smtp2go/sync: a day's SMTP2GO statistics pushed by the user's own script (spec part 2,
 * section 7), stored like the plugin's own sync stores them. Counts win over rates; rates are percent
 * of total_sent (98.5, not 0.985).
 */
export const ProviderSyncBody = z.object({
  provider: z.literal('smtp2go', { error: 'provider must be smtp2go on this endpoint' }).default('smtp2go'),
  timestamp: z.iso.datetime({
    offset: true,
    error: 'timestamp must be an ISO 8601 date and time, e.g. 2024-01-15T10:00:00Z',
  }),
  data: z.object({
    total_sent: count('data.total_sent'),
    delivered: count('data.delivered').optional(),
    bounces: count('data.bounces').optional(),
    spam_complaints: count('data.spam_complaints').optional(),
    opens: count('data.opens').optional(),
    clicks: count('data.clicks').optional(),
    delivery_rate: rate('data.delivery_rate').optional(),
    bounce_rate: rate('data.bounce_rate').optional(),
    spam_rate: rate('data.spam_rate').optional(),
    open_rate: rate('data.open_rate').optional(),
    click_rate: rate('data.click_rate').optional(),
  }),
});
export type ProviderSyncBody = z.infer<typeof ProviderSyncBody>;

/** The day's figures as stored (UTC day of the timestamp). */
export const ProviderSyncAnswer = z.object({
  provider: z.string(),
  date: z.string(),
  emailsSent: z.number().int(),
  delivered: z.number().int(),
  bounced: z.number().int(),
  complaints: z.number().int(),
  opens: z.number().int(),
  clicks: z.number().int(),
});
export type ProviderSyncAnswer = z.infer<typeof ProviderSyncAnswer>;
