import { z } from 'zod';
import { readAnswer, type EspProvider, type PluginConfig } from './provider';

/*
 * Omnisend API v3 (https://api-docs.omnisend.com). Header `X-API-KEY`. The test lists one campaign
 * (GET /v3/campaigns?limit=1, the Campaigns permission). Omnisend offers no daily sending
 * statistics, so a sync only tests the connection. Errors are problem details {"title", "detail"}
 * or {"error": ...}.
 */

const NAME = 'Omnisend';

const Campaigns = z.object({ campaigns: z.array(z.unknown()).optional() }).passthrough();

const headers = (config: PluginConfig) => ({ 'x-api-key': config.apiKey ?? '' });

export const omnisend: EspProvider = {
  id: 'omnisend',
  name: NAME,
  errorText(body) {
    const o = body as { detail?: unknown; title?: unknown; error?: unknown } | null;
    if (typeof o?.detail === 'string' && o.detail) return o.detail;
    if (typeof o?.error === 'string' && o.error) return o.error;
    return typeof o?.title === 'string' && o.title ? o.title : undefined;
  },
  async testConnection(http, config) {
    readAnswer(
      NAME,
      Campaigns,
      await http.json(`${http.env.OMNISEND_API_BASE_URL}/v3/campaigns?limit=1`, { headers: headers(config) }),
    );
  },
};
