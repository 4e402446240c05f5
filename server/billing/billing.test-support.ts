import type { TestClient } from '../test/test-app';

/** The answer to a coupon code entered on the pricing page for a plan: the discount, or why the code is refused. */
export async function applyCoupon(
  client: TestClient,
  couponCode: string,
  planId = 'professional_monthly',
): Promise<{ discount?: number; message: string }> {
  return (await client.post('/api/apply-coupon', { couponCode, planId })).json();
}

/** The account's subscription as the billing page reads it. */
export const subscriptionOf = async (client: TestClient) => (await client.get('/api/subscription')).json().subscription;

/** What the billing page reads once a subscription has ended: Free, with nothing left of its price, period or coupon. */
export const ENDED_SUBSCRIPTION = {
  plan: 'free',
  priceId: null,
  status: 'canceled',
  current_period_end: null,
  cancel_at_period_end: false,
  coupon: null,
};
