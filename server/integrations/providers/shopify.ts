import { z } from 'zod';
import { hostOfField } from '@contracts/integrations';
import { fillBase, ProviderError, type EspProvider, type PluginConfig, type ProviderHttp } from './provider';

/*
 * Shopify Admin REST API (https://shopify.dev/docs/api/admin-rest). Header
 * `X-Shopify-Access-Token` on the store's own host, which the user gives: the request goes through
 * the outbound guard like any user-given host. The test reads the shop (GET
 * /admin/api/<version>/shop.json). Shopify has no API for Shopify Email statistics, so a sync only
 * tests the connection. Errors are {"errors": "..."} or {"errors": {field: [...]}}.
 */

const NAME = 'Shopify Email';
/** A stable Admin API version; once Shopify retires it, it serves the oldest supported one, and shop.json reads the same. */
export const SHOPIFY_API_VERSION = '2026-01';

const Shop = z.object({ shop: z.object({ name: z.string() }).passthrough() });

function base(http: ProviderHttp, config: PluginConfig): string {
  const host = hostOfField(config.additionalConfig ?? '');
  if (!host)
    throw new ProviderError('The store domain must be your store address, such as yourstore.myshopify.com', 'refused');
  return fillBase(http.env.SHOPIFY_API_BASE_URL, { host });
}

export const shopify: EspProvider = {
  id: 'shopifyemail',
  name: NAME,
  errorText(body) {
    const errors = (body as { errors?: unknown } | null)?.errors;
    if (typeof errors === 'string') return errors || undefined;
    if (errors && typeof errors === 'object') {
      const texts = Object.entries(errors as Record<string, unknown>).map(
        ([field, value]) => `${field} ${Array.isArray(value) ? value.join(', ') : String(value)}`,
      );
      return texts.join('; ') || undefined;
    }
    return undefined;
  },
  async testConnection(http, config) {
    await http.read(Shop, `${base(http, config)}/admin/api/${SHOPIFY_API_VERSION}/shop.json`, {
      headers: { 'x-shopify-access-token': config.apiKey ?? '' },
    });
  },
};
