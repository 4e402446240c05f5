import { ESP_INTEGRATIONS, type Integration as Plugin, type PluginField } from '@content/integrations';
import { pluginConfigProblems, type Integration } from '@contracts/integrations';
import type { Tone } from '../../components/ui/pill';

/** The tabs of the page (part 2, section 2), in order; `?tab=` names one. */
export const INTEGRATION_TABS = ['esp', 'mta', 'analytics'] as const;
export type IntegrationTab = (typeof INTEGRATION_TABS)[number];
export const TAB_LABELS: Record<IntegrationTab, string> = {
  esp: 'Email Service Providers',
  mta: 'Mail Transfer Agents',
  analytics: 'Analytics & Tools',
};

/** The catalogue's plugins of a tab, most popular first. */
export function pluginsOf(category: 'esp' | 'analytics'): Plugin[] {
  return ESP_INTEGRATIONS.filter((plugin) => plugin.category === category).sort((a, b) => b.popularity - a.popularity);
}

/** Google Postmaster Tools connects through Google sign-in (ADR 029), not with a key. */
export const POSTMASTER_PLUGIN_ID = 'google-postmaster';

/**
 * The plugin a `?manage=` value names: the catalogue's ids, and part 1's spelling of Google
 * Postmaster Tools (`gmailpostmaster`), which the dashboard's name list still understands.
 */
export function pluginFromParam(value: string): Plugin | undefined {
  const id = value === 'gmailpostmaster' ? POSTMASTER_PLUGIN_ID : value;
  return ESP_INTEGRATIONS.find((plugin) => plugin.id === id);
}

/** The user's integration of a plugin, if installed (one per plugin: the server refuses a second). */
export function installedOf(list: readonly Integration[] | undefined, pluginId: string): Integration | undefined {
  return list?.find((integration) => integration.provider === pluginId);
}

/** The catalogue plugins the user has installed. */
export function installedCount(list: readonly Integration[]): number {
  return list.filter((integration) => ESP_INTEGRATIONS.some((plugin) => plugin.id === integration.provider)).length;
}

/** Part 2, section 2: "{n} plugins installed" (one plugin reads in the singular). */
export function installedBadge(count: number): string {
  return `${count} ${count === 1 ? 'plugin' : 'plugins'} installed`;
}

export interface StatusView {
  label: string;
  tone: Tone;
}

/** How an installed integration reads: syncing, paused, or failing. */
export function statusOf(integration: Integration): StatusView {
  if (integration.status === 'inactive') return { label: 'Paused', tone: 'none' };
  if (integration.status === 'error') return { label: 'Error', tone: 'bad' };
  if (integration.lastError) return { label: 'Last sync failed', tone: 'warn' };
  return { label: 'Active', tone: 'good' };
}

/** Part 2, section 8: the words of a connection test. */
export const CONNECTION_SUCCESS = 'Connection test successful! Ready to install.';
export const connectionFailed = (error: string) => `Connection failed: ${error}`;

/** What is wrong with one field's value, in the words the server uses (contracts/integrations.ts). */
export function fieldProblem(
  plugin: Plugin,
  field: PluginField,
  value: string,
  options: { keepSecret?: boolean } = {},
): string | undefined {
  return pluginConfigProblems(
    { ...plugin, fields: [field] },
    { [field.key]: value },
    { keepSecrets: options.keepSecret },
  )[0];
}

/** The config to send: every field the user filled in, trimmed (empty optional fields are left out). */
export function filledConfig(plugin: Plugin, values: Record<string, string>): Record<string, string> {
  const config: Record<string, string> = {};
  for (const field of plugin.fields) {
    const value = values[field.key]?.trim() ?? '';
    if (value) config[field.key] = value;
  }
  return config;
}
