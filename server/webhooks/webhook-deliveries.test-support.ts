import type { WebhookDelivery } from '@contracts/webhooks';
import type { TestClient } from '../test/test-app';
import { waitUntil } from '../test/wait-until';

/** The delivery once it is delivered or failed, as the webhook's deliveries log shows it to its owner. */
export async function settledDelivery(
  client: TestClient,
  webhookId: number,
  deliveryId: number,
): Promise<WebhookDelivery> {
  const delivery = await waitUntil(
    async () =>
      ((await client.get(`/api/webhooks/${webhookId}/deliveries`)).json() as WebhookDelivery[]).find(
        (d) => d.id === deliveryId,
      ),
    `delivery ${deliveryId} to settle`,
    { until: (d) => d?.status === 'delivered' || d?.status === 'failed', timeoutMs: 25_000 },
  );
  return delivery!;
}
