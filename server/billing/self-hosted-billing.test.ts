// Self-hosted billing (the default, ADR 033): plan changes take effect at once and open or close the
// gates on the very next request; coupons come from the operator's table.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '@contracts/billing';
import { runCoupons } from '../../scripts/coupons';
import { newApiKey, withKey } from '../api-keys/api-keys.test-support';
import { billingCoupons, users } from '../platform/db/schema/index';
import { caughtUp } from '../test/caught-up';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';
import { applyCoupon, ENDED_SUBSCRIPTION, subscriptionOf } from './billing.test-support';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const coupons = (...argv: string[]) => runCoupons(t.database.db, argv);
const trends = (client: TestClient) => client.get('/api/dashboard/trends');

describe('self-hosted billing', () => {
  it('upgrades at once, opens the gated feature, and downgrades back to a locked Free plan', async () => {
    const { client } = await signUp(t.app);
    const before = (await client.get('/api/subscription')).json();
    expect(before).toEqual({
      subscription: {
        plan: 'free',
        priceId: null,
        status: null,
        current_period_end: null,
        cancel_at_period_end: false,
        coupon: null,
      },
      billing: { mode: 'self-hosted', publishableKey: null },
    });
    expect((await trends(client)).json()).toEqual({ code: 'forbidden', message: 'Requires Professional plan' });

    // `professional` alone means professional_monthly (part 2, section 4, item 5).
    const upgraded = await client.post('/api/upgrade-subscription', { planId: 'professional' });
    expect(upgraded.json()).toEqual({ message: 'Subscription upgraded successfully', planId: 'professional_monthly' });
    expect((await trends(client)).statusCode).toBe(200);
    expect((await client.get('/api/user')).json().subscriptionPlan).toBe('professional');
    expect(await subscriptionOf(client)).toMatchObject({
      plan: 'professional',
      priceId: 'professional_monthly',
      status: 'active',
    });

    const again = await client.post('/api/upgrade-subscription', { planId: 'professional_monthly' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("You're already on this plan");

    // A change to the annual price, then down to starter: the gate follows each.
    const annual = await client.post('/api/change-subscription', { newPlanId: 'professional_annual' });
    expect(annual.json().subscription).toMatchObject({
      plan: 'professional',
      priceId: 'professional_annual',
      status: 'active',
    });
    const starter = await client.post('/api/change-subscription', { newPlanId: 'starter_monthly' });
    expect(starter.json().subscription).toMatchObject({ plan: 'starter', priceId: 'starter_monthly' });
    expect((await trends(client)).statusCode).toBe(403);
    await client.post('/api/change-subscription', { newPlanId: 'professional' });

    const down = await client.post('/api/downgrade-subscription');
    expect(down.json()).toEqual({ message: BILLING_MESSAGES.downgraded });
    expect((await trends(client)).json()).toEqual({ code: 'forbidden', message: 'Requires Professional plan' });
    expect(await subscriptionOf(client)).toMatchObject({
      plan: 'free',
      status: 'canceled',
    });
    expect((await client.post('/api/downgrade-subscription')).json().message).toBe("You're already on the Free plan");
    expect((await client.get('/api/invoices')).json()).toEqual({ invoices: [] });
  });

  it('cancels at once (no paid period to run out), has nothing to reactivate and no billing portal', async () => {
    const { client } = await signUp(t.app);
    expect((await client.post('/api/cancel-subscription')).json()).toEqual({
      code: 'conflict',
      message: 'You have no active subscription',
    });
    await coupons('add', 'YEARLY15', '--percent', '15');
    await applyCoupon(client, 'YEARLY15', 'professional_annual');
    await client.post('/api/upgrade-subscription', { planId: 'professional_annual' });
    expect(await subscriptionOf(client)).toMatchObject({
      priceId: 'professional_annual',
      coupon: { code: 'YEARLY15' },
    });
    expect((await client.post('/api/reactivate-subscription')).json().message).toBe(BILLING_MESSAGES.notCanceling);
    expect((await client.post('/api/subscription/cancel')).json()).toEqual({ message: BILLING_MESSAGES.canceledNow });
    // What the account is on now: Free, with no price and no coupon left over from the ended subscription.
    expect(await subscriptionOf(client)).toEqual(ENDED_SUBSCRIPTION);

    const portal = await client.post('/api/subscription/billing-portal');
    expect(portal.statusCode).toBe(409);
    expect(portal.json()).toEqual({ code: 'conflict', message: 'Billing is not configured on this server' });
    const webhook = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      payload: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(webhook.json().message).toBe('Billing is not configured on this server');
  });

  it('applies a coupon from the table, redeems it with the subscription and locks it', async () => {
    expect(await coupons('add', 'SPRING20', '--percent', '20', '--max', '100', '--until', '2999-01-01')).toMatch(
      /^Added SPRING20\t20% off\t0\/100 redeemed/,
    );
    const { client } = await signUp(t.app);
    expect(await applyCoupon(client, '  spring20 ')).toEqual({
      discount: 20,
      message: 'Coupon SPRING20 applied: 20% off',
    });
    // Applied, not yet redeemed: the table counts it when a subscription takes it.
    expect(
      (await t.database.db.select().from(billingCoupons).where(eq(billingCoupons.code, 'SPRING20')))[0].redemptions,
    ).toBe(0);

    await client.post('/api/upgrade-subscription', { planId: 'professional_monthly' });
    const { subscription } = (await client.get('/api/subscription')).json();
    expect(subscription.coupon).toEqual({ code: 'SPRING20', percentOff: 20, amountOffCents: null });
    expect(
      (await t.database.db.select().from(billingCoupons).where(eq(billingCoupons.code, 'SPRING20')))[0].redemptions,
    ).toBe(1);

    // Locked on the live subscription: another code is refused, the same one answers again.
    await coupons('add', 'TENOFF', '--amount', '9.80');
    expect((await applyCoupon(client, 'TENOFF')).message).toBe('A coupon is already applied');
    expect((await applyCoupon(client, 'SPRING20')).discount).toBe(20);
    // The page sends the applied coupon with each change: it is not redeemed again, and no other takes its place.
    const changed = await client.post('/api/change-subscription', {
      newPlanId: 'professional_annual',
      couponCode: 'SPRING20',
    });
    expect(changed.json().subscription).toMatchObject({ priceId: 'professional_annual', coupon: { code: 'SPRING20' } });
    expect(
      (await t.database.db.select().from(billingCoupons).where(eq(billingCoupons.code, 'SPRING20')))[0].redemptions,
    ).toBe(1);
    const swapped = await client.post('/api/change-subscription', {
      newPlanId: 'professional_monthly',
      couponCode: 'TENOFF',
    });
    expect(swapped.json()).toEqual({ code: 'conflict', message: 'A coupon is already applied' });
  });

  it('turns an amount off into the percentage of the chosen price', async () => {
    const { client } = await signUp(t.app);
    await coupons('add', 'MINUS980', '--amount', '9.80');
    // $9.80 of $49.00 is 20 %.
    expect(await applyCoupon(client, 'MINUS980', 'professional')).toEqual({
      discount: 20,
      message: 'Coupon MINUS980 applied: 20% off',
    });
  });

  it('refuses an unknown, expired, exhausted or disabled coupon and changes nothing', async () => {
    await coupons('add', 'OLDNEWS', '--percent', '50', '--until', '2020-01-01');
    await coupons('add', 'ONLYONE', '--percent', '10', '--max', '1');
    await coupons('add', 'PULLED', '--percent', '10');
    await coupons('disable', 'pulled');
    const first = await signUp(t.app);
    const second = await signUp(t.app);
    const apply = (client: TestClient, couponCode: string) =>
      client.post('/api/apply-coupon', { couponCode, planId: 'starter_monthly' });

    expect((await apply(first.client, 'NOSUCHCODE')).json()).toEqual({
      code: 'validation_error',
      message: 'Invalid coupon code',
    });
    expect((await apply(first.client, 'OLDNEWS')).json().message).toBe('This coupon has expired');
    expect((await apply(first.client, 'PULLED')).json().message).toBe('Invalid coupon code');
    expect((await apply(first.client, '   ')).statusCode).toBe(400);

    // Both apply the last redemption; the first subscription takes it, the second is refused and stays free.
    expect((await apply(first.client, 'ONLYONE')).statusCode).toBe(200);
    expect((await apply(second.client, 'ONLYONE')).statusCode).toBe(200);
    expect((await first.client.post('/api/upgrade-subscription', { planId: 'starter_monthly' })).statusCode).toBe(200);
    const refused = await second.client.post('/api/upgrade-subscription', { planId: 'starter_monthly' });
    expect(refused.json()).toEqual({
      code: 'validation_error',
      message: 'This coupon has reached its redemption limit',
    });
    expect((await second.client.get('/api/subscription')).json().subscription).toMatchObject({
      plan: 'free',
      status: null,
    });
    expect((await apply(second.client, 'ONLYONE')).json().message).toBe('This coupon has reached its redemption limit');
  });

  it('honours the registration coupon at the first paid subscription, once', async () => {
    await coupons('add', 'WELCOME15', '--percent', '15');
    const client = new TestClient(t.app, '127.77.0.1');
    const res = await client.post('/api/register', {
      username: 'couponed',
      email: 'couponed@example.com',
      password: 'correct horse battery',
      couponCode: 'WELCOME15',
    });
    expect(res.statusCode).toBe(200);
    await client.post('/api/upgrade-subscription', { planId: 'starter_monthly' });
    expect((await subscriptionOf(client)).coupon).toEqual({
      code: 'WELCOME15',
      percentOff: 15,
      amountOffCents: null,
    });
    await client.post('/api/downgrade-subscription');
    await client.post('/api/upgrade-subscription', { planId: 'starter_monthly' });
    expect((await subscriptionOf(client)).coupon).toBeNull();
  });

  it('leaves Custom Enterprise to the operator, bad input to a 400, and billing to the browser session', async () => {
    const { client, user } = await signUp(t.app);
    const bad = await client.post('/api/upgrade-subscription', { planId: 'platinum' });
    expect(bad.statusCode).toBe(400);
    expect((await client.post('/api/upgrade-subscription', { planId: 'free' })).statusCode).toBe(400);
    expect(
      (await client.post('/api/apply-coupon', { couponCode: 'x'.repeat(65), planId: 'professional' })).statusCode,
    ).toBe(400);
    expect((await subscriptionOf(client)).status).toBeNull();

    await t.database.db.update(users).set({ subscriptionPlan: 'professional' }).where(eq(users.id, user.id));
    await caughtUp(t);
    const key = await newApiKey(client);
    const byKey = await withKey(t.app, key, 'POST', '/api/upgrade-subscription', { planId: 'professional_annual' });
    expect(byKey.statusCode).toBe(403);
    expect((await withKey(t.app, key, 'GET', '/api/subscription')).statusCode).toBe(403);

    await t.database.db.update(users).set({ subscriptionPlan: 'enterprise' }).where(eq(users.id, user.id));
    await caughtUp(t);
    const refused = await client.post('/api/upgrade-subscription', { planId: 'starter_monthly' });
    expect(refused.json()).toEqual({ code: 'conflict', message: BILLING_MESSAGES.enterprise });
    expect((await client.get('/api/user')).json().subscriptionPlan).toBe('enterprise');
  });
});
