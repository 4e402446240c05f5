import { z } from 'zod';
import { textAt, type EspProvider, type PluginConfig } from './provider';

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
    return textAt(body, 'detail') ?? textAt(body, 'error') ?? textAt(body, 'title');
  },
  async testConnection(http, config) {
    await http.read(Campaigns, `${http.env.OMNISEND_API_BASE_URL}/v3/campaigns?limit=1`, { headers: headers(config) });
  },
};
