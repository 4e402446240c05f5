// Stripe mode (ADR 033): the official SDK against a loopback stand-in of Stripe's API, and webhooks
// signed with the SDK's own test-header helper.
import { count, eq } from 'drizzle-orm';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '@contracts/billing';
import { loadEnv } from '../platform/env';
import { stripeEvents } from '../platform/db/schema/index';
import { createTestApp, signUp, TestClient, type TestApp } from '../test/test-app';
import { FAKE_STRIPE_KEY, PRICES, startFakeStripe, type FakeStripe } from './test/fake-stripe';
import { applyCoupon, ENDED_SUBSCRIPTION, subscriptionOf } from './billing.test-support';
import { NOT_AN_EVENT } from './stripe-webhook';

const WEBHOOK_SECRET = 'whsec_testSecret0123456789';
const stripeEnv = (url: string) => ({
  STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
  STRIPE_PUBLISHABLE_KEY: 'pk_test_fakePublishable0123',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_PRICE_STARTER_MONTHLY: PRICES.starter_monthly,
  STRIPE_PRICE_PROFESSIONAL_MONTHLY: PRICES.professional_monthly,
  STRIPE_PRICE_PROFESSIONAL_ANNUAL: PRICES.professional_annual,
  STRIPE_API_BASE: url,
});

let fake: FakeStripe;
let t: TestApp;
const sdk = new Stripe(FAKE_STRIPE_KEY);
let eventCounter = 0;

beforeAll(async () => {
  fake = await startFakeStripe();
  const webRoot = mkdtempSync(path.join(tmpdir(), 'inboxpulse-web-'));
  writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
  t = await createTestApp({ env: stripeEnv(fake.url), webRoot });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** An event as Stripe sends it, the subscription as it was when the event was made. */
function eventOf(type: string, object: object, id = `evt_test_${++eventCounter}_${Date.now()}`) {
  return {
    id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null },
    type,
    data: { object },
  };
}

function deliver(event: object, secret = WEBHOOK_SECRET, tamper?: (payload: string) => string) {
  const payload = JSON.stringify(event);
  const signature = sdk.webhooks.generateTestHeaderString({ payload, secret });
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    payload: tamper ? tamper(payload) : payload,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
  });
}

const snapshot = (id: string) => JSON.parse(JSON.stringify(fake.subscriptions.get(id)));
const trends = (client: TestClient) => client.get('/api/dashboard/trends');
const retrievals = (id: string) =>
  fake.requests.filter((r) => r.method === 'GET' && r.path === `/v1/subscriptions/${id}`).length;

/** A user who went through checkout: the upgrade's client secret, then Stripe's invoice.paid. */
async function paidUser(planId = 'professional_monthly') {
  const { client, user } = await signUp(t.app);
  const upgrade = (await client.post('/api/upgrade-subscription', { planId })).json();
  fake.setStatus(upgrade.subscriptionId, 'active');
  const invoice = fake.invoices.find((i) => i.id === fake.subscriptions.get(upgrade.subscriptionId)!.latest_invoice)!;
  expect((await deliver(eventOf('invoice.paid', invoice))).statusCode).toBe(200);
  return { client, user, subscriptionId: upgrade.subscriptionId as string };
}

describe('Stripe billing', () => {
  it('upgrades through checkout: a client secret first, the plan once Stripe says the invoice is paid', async () => {
    const { client, user } = await signUp(t.app);
    expect((await client.get('/api/subscription')).json().billing).toEqual({
      mode: 'stripe',
      publishableKey: 'pk_test_fakePublishable0123',
    });

    const upgrade = await client.post('/api/upgrade-subscription', { planId: 'professional' });
    const body = upgrade.json();
    expect(body).toEqual({
      clientSecret: expect.stringMatching(/^pi_.+_secret_/),
      planId: 'professional_monthly',
      subscriptionId: expect.stringMatching(/^sub_/),
    });
    const created = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/subscriptions')!;
    expect(created.body).toMatchObject({
      items: [{ price: PRICES.professional_monthly }],
      payment_behavior: 'default_incomplete',
      expand: ['latest_invoice.confirmation_secret'],
      metadata: { userId: String(user.id), priceId: 'professional_monthly' },
    });
    const customer = fake.customers.get(created.body.customer as string)!;
    expect(customer).toMatchObject({ email: user.email, metadata: { userId: String(user.id) } });
    // Not paid yet: the plan waits, the page says payment is required.
    expect(await subscriptionOf(client)).toMatchObject({
      plan: 'free',
      status: 'incomplete',
      priceId: 'professional_monthly',
    });
    expect((await trends(client)).statusCode).toBe(403);

    fake.setStatus(body.subscriptionId, 'active');
    const invoice = fake.invoices.find((i) => i.id === fake.subscriptions.get(body.subscriptionId)!.latest_invoice)!;
    expect((await deliver(eventOf('invoice.paid', invoice))).json()).toEqual({ received: true });
    const active = await subscriptionOf(client);
    expect(active).toMatchObject({
      plan: 'professional',
      status: 'active',
      priceId: 'professional_monthly',
      cancel_at_period_end: false,
    });
    expect(new Date(active.current_period_end).getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000);
    expect((await trends(client)).statusCode).toBe(200);

    // A second upgrade to the same price is refused; the customer is made once.
    expect((await client.post('/api/upgrade-subscription', { planId: 'professional_monthly' })).json().message).toBe(
      "You're already on this plan",
    );
    expect(fake.requests.filter((r) => r.path === '/v1/customers').length).toBe(1);
  });

  it('refuses a bad signature with 400 and records nothing', async () => {
    const { subscriptionId } = await paidUser();
    const event = eventOf('customer.subscription.updated', snapshot(subscriptionId));
    const wrongSecret = await deliver(event, 'whsec_notTheSecret');
    expect(wrongSecret.statusCode).toBe(400);
    expect(wrongSecret.json()).toEqual({ code: 'validation_error', message: 'Invalid Stripe signature' });
    expect(
      (await deliver(event, WEBHOOK_SECRET, (p) => p.replace('"livemode":false', '"livemode":true'))).statusCode,
    ).toBe(400);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      payload: JSON.stringify(event),
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await t.database.db.select().from(stripeEvents).where(eq(stripeEvents.id, event.id))).toEqual([]);
  });

  it('refuses a signed body that is not an event it can read (no data, no id) with 400, and records nothing', async () => {
    const { id, type, ...rest } = eventOf('invoice.paid', { object: 'invoice' });
    for (const body of [
      { id, type, ...rest, data: undefined },
      { ...rest, type, data: { object: null } },
    ]) {
      const res = await deliver(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: 'validation_error', message: NOT_AN_EVENT });
    }
    expect(await t.database.db.select().from(stripeEvents).where(eq(stripeEvents.id, id))).toEqual([]);
  });

  it('applies a replayed event once', async () => {
    const { client, subscriptionId } = await paidUser();
    fake.setStatus(subscriptionId, 'past_due');
    const event = eventOf('invoice.payment_failed', {
      object: 'invoice',
      id: 'in_failed',
      parent: { subscription_details: { subscription: subscriptionId } },
    });
    expect((await deliver(event)).statusCode).toBe(200);
    expect(await subscriptionOf(client)).toMatchObject({ plan: 'professional', status: 'past_due' });

    // Stripe moves on; the same event delivered again is answered but neither fetched nor applied.
    fake.setStatus(subscriptionId, 'active');
    const fetched = retrievals(subscriptionId);
    expect((await deliver(event)).json()).toEqual({ received: true });
    expect(retrievals(subscriptionId)).toBe(fetched);
    expect(await subscriptionOf(client)).toMatchObject({ status: 'past_due' });
    const [{ n }] = await t.database.db.select({ n: count() }).from(stripeEvents).where(eq(stripeEvents.id, event.id));
    expect(n).toBe(1);
  });

  it('ends in the right state when events arrive out of order', async () => {
    const { client, subscriptionId } = await paidUser();
    const whileActive = eventOf('customer.subscription.updated', snapshot(subscriptionId));
    fake.setStatus(subscriptionId, 'canceled');
    const deleted = eventOf('customer.subscription.deleted', snapshot(subscriptionId));
    expect((await deliver(deleted)).statusCode).toBe(200);
    expect(await subscriptionOf(client)).toMatchObject({ plan: 'free', status: 'canceled' });
    // The older "active" snapshot comes last: Stripe's truth (canceled) stands.
    expect((await deliver(whileActive)).statusCode).toBe(200);
    expect(await subscriptionOf(client)).toMatchObject({ plan: 'free', status: 'canceled' });
    expect((await trends(client)).statusCode).toBe(403);

    // A new subscription; a late event about the old one leaves it alone.
    const upgrade = (await client.post('/api/upgrade-subscription', { planId: 'starter_monthly' })).json();
    fake.setStatus(upgrade.subscriptionId, 'active');
    expect((await deliver(eventOf('customer.subscription.updated', snapshot(upgrade.subscriptionId)))).statusCode).toBe(
      200,
    );
    expect(await subscriptionOf(client)).toMatchObject({
      plan: 'starter',
      status: 'active',
      priceId: 'starter_monthly',
    });
    fake.subscriptions.get(subscriptionId)!.created =
      (fake.subscriptions.get(upgrade.subscriptionId)!.created as number) - 60;
    expect((await deliver(eventOf('customer.subscription.deleted', snapshot(subscriptionId)))).statusCode).toBe(200);
    expect(await subscriptionOf(client)).toMatchObject({ plan: 'starter', status: 'active' });
  });

  it('keeps the plan while past due and takes it away when the first payment expires', async () => {
    const { client } = await signUp(t.app);
    const upgrade = (await client.post('/api/upgrade-subscription', { planId: 'professional_annual' })).json();
    fake.setStatus(upgrade.subscriptionId, 'incomplete_expired');
    await deliver(eventOf('customer.subscription.updated', snapshot(upgrade.subscriptionId)));
    expect(await subscriptionOf(client)).toMatchObject({ plan: 'free', status: 'incomplete_expired' });

    const { client: payer, subscriptionId } = await paidUser('professional_annual');
    fake.setStatus(subscriptionId, 'past_due');
    await deliver(eventOf('customer.subscription.updated', snapshot(subscriptionId)));
    expect(await subscriptionOf(payer)).toMatchObject({
      plan: 'professional',
      status: 'past_due',
      priceId: 'professional_annual',
    });
  });

  it('changes the plan with proration, cancels at the period end, reactivates and downgrades', async () => {
    const { client, subscriptionId } = await paidUser();
    const changed = await client.post('/api/change-subscription', { newPlanId: 'professional_annual' });
    expect(changed.json().subscription).toMatchObject({
      plan: 'professional',
      priceId: 'professional_annual',
      status: 'active',
    });
    const update = fake.requests
      .filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${subscriptionId}`)
      .at(-1)!;
    expect(update.body).toMatchObject({
      proration_behavior: 'create_prorations',
      items: [{ price: PRICES.professional_annual }],
    });
    expect((await client.post('/api/change-subscription', { newPlanId: 'professional_annual' })).json().message).toBe(
      "You're already on this plan",
    );

    expect((await client.post('/api/cancel-subscription')).json()).toEqual({ message: BILLING_MESSAGES.canceled });
    // Until the period ends: the paid plan, its price and the date it ends on.
    expect(await subscriptionOf(client)).toMatchObject({
      plan: 'professional',
      priceId: 'professional_annual',
      status: 'active',
      cancel_at_period_end: true,
      current_period_end: expect.any(String),
    });
    expect(fake.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(true);
    expect((await client.post('/api/subscription/reactivate')).json()).toEqual({
      message: BILLING_MESSAGES.reactivated,
    });
    expect(await subscriptionOf(client)).toMatchObject({ cancel_at_period_end: false });

    expect((await client.post('/api/downgrade-subscription')).json()).toEqual({ message: BILLING_MESSAGES.downgraded });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/v1/subscriptions/${subscriptionId}` });
    // Ended: Free, with nothing of the old subscription's price or period.
    expect(await subscriptionOf(client)).toEqual(ENDED_SUBSCRIPTION);
    expect((await trends(client)).statusCode).toBe(403);
  });

  it('applies coupons as promotion codes, the registration code at the first paid subscription', async () => {
    fake.addPromotionCode('HALFOFF', { percent_off: 50 });
    fake.addPromotionCode('FIVEBUCKS', { amount_off: 490 });
    fake.addPromotionCode('GONE', { percent_off: 10 }, { expires_at: Math.floor(Date.now() / 1000) - 60 });
    const { client } = await signUp(t.app);
    expect(await applyCoupon(client, 'FIVEBUCKS')).toEqual({
      discount: 10,
      message: 'Coupon FIVEBUCKS applied: 10% off',
    });
    expect((await applyCoupon(client, 'GONE')).message).toBe('This coupon has expired');
    expect((await applyCoupon(client, 'NOPE')).message).toBe('Invalid coupon code');
    expect((await applyCoupon(client, 'HALFOFF')).discount).toBe(50);
    await client.post('/api/upgrade-subscription', { planId: 'professional_monthly' });
    const halfOff = fake.promotionCodes.find((p) => p.code === 'HALFOFF')!;
    const created = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/subscriptions').at(-1)!;
    expect(created.body.discounts).toEqual([{ promotion_code: halfOff.id }]);
    expect((await subscriptionOf(client)).coupon).toEqual({ code: 'HALFOFF', percentOff: 50, amountOffCents: null });

    // Registered with a code: Stripe's 100 %-off promotion activates the first subscription at once.
    fake.addPromotionCode('FOUNDER', { percent_off: 100 });
    const founder = new TestClient(t.app, '127.78.0.1');
    await founder.post('/api/register', {
      username: 'founder',
      email: 'founder@example.com',
      password: 'correct horse battery',
      couponCode: 'FOUNDER',
    });
    expect((await founder.post('/api/upgrade-subscription', { planId: 'starter_monthly' })).json()).toEqual({
      message: 'Subscription upgraded successfully',
      planId: 'starter_monthly',
    });
    expect(await subscriptionOf(founder)).toMatchObject({
      plan: 'starter',
      status: 'active',
      coupon: { code: 'FOUNDER', percentOff: 100, amountOffCents: null },
    });
  });

  it('opens the billing portal and lists invoices from Stripe', async () => {
    const { client } = await signUp(t.app);
    expect((await client.get('/api/invoices')).json()).toEqual({ invoices: [] });
    const paid = await paidUser();
    const portal = (await paid.client.post('/api/subscription/billing-portal')).json();
    expect(portal.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    expect(fake.requests.at(-1)!.body.return_url).toBe('http://localhost:3000/subscription');
    const { invoices } = (await paid.client.get('/api/invoices')).json();
    expect(invoices).toEqual([
      {
        id: expect.stringMatching(/^in_/),
        number: expect.stringMatching(/^INV-/),
        created: expect.any(String),
        amountPaidCents: 4900,
        currency: 'usd',
        status: 'paid',
        hostedInvoiceUrl: expect.stringMatching(/^https:\/\/invoice\.stripe\.com\//),
      },
    ]);
  });

  it('says Stripe is unavailable in the spec’s words when it cannot be reached, and changes nothing', async () => {
    const down = await createTestApp({ env: stripeEnv('http://127.0.0.1:9') });
    try {
      const { client } = await signUp(down.app);
      const res = await client.post('/api/upgrade-subscription', { planId: 'starter_monthly' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        code: 'unavailable',
        message: 'Payment system unavailable. Please try again later.',
      });
      expect(await subscriptionOf(client)).toMatchObject({ plan: 'free', status: null });
    } finally {
      await down.close();
    }
  }, 60_000);

  it('opens Stripe’s origins in the content security policy of /checkout only', async () => {
    const checkout = await t.app.inject({ method: 'GET', url: '/checkout?plan=professional_monthly' });
    expect(checkout.statusCode).toBe(200);
    const csp = String(checkout.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toMatch(/frame-src https:\/\/js\.stripe\.com/);
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
    for (const url of ['/', '/pricing', '/checkout-notes']) {
      const other = String((await t.app.inject({ method: 'GET', url })).headers['content-security-policy']);
      expect(other, url).not.toContain('stripe.com');
    }
    const selfHosted = await createTestApp({ webRoot: mkdtempSync(path.join(tmpdir(), 'inboxpulse-web-')) });
    try {
      expect(
        String((await selfHosted.app.inject({ method: 'GET', url: '/checkout' })).headers['content-security-policy']),
      ).not.toContain('stripe.com');
    } finally {
      await selfHosted.close();
    }
  });

  it('needs every STRIPE_* variable, or none', () => {
    const base = { NODE_ENV: 'test', APP_SECRET: 'test-secret-test-secret-test-secret-0123', DATA_DIR: tmpdir() };
    expect(() => loadEnv({ ...base, STRIPE_SECRET_KEY: FAKE_STRIPE_KEY })).toThrow(
      /STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET.*required with STRIPE_SECRET_KEY/,
    );
    expect(() =>
      loadEnv({ ...base, ...stripeEnv('http://127.0.0.1:1'), STRIPE_SECRET_KEY: 'pk_test_wrongKind' }),
    ).toThrow(/STRIPE_SECRET_KEY must be a Stripe secret key/);
    expect(loadEnv({ ...base, ...stripeEnv('http://127.0.0.1:1') }).STRIPE_API_BASE).toBe('http://127.0.0.1:1');
  });
});
