import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

/*
 * A loopback stand-in for the parts of Stripe's API billing calls, answering with the shapes of
 * Stripe's API reference (API version 2026-10-28, the SDK's pinned one): customers, subscriptions
 * (their items carry the period; the latest invoice carries the confirmation secret), promotion codes
 * with their coupons, prices, billing portal sessions and invoices. Requests arrive as the SDK sends
 * them: form-encoded with bracketed keys, the secret key as a bearer token.
 */

export const FAKE_STRIPE_KEY = 'sk_test_fakeStripeKey0123456789';
export const PRICES = {
  starter_monthly: 'price_starterMonthly',
  professional_monthly: 'price_proMonthly',
  professional_annual: 'price_proAnnual',
};
const UNIT_AMOUNT: Record<string, number> = {
  price_starterMonthly: 2900,
  price_proMonthly: 4900,
  price_proAnnual: 48000,
};
const INTERVAL: Record<string, string> = {
  price_starterMonthly: 'month',
  price_proMonthly: 'month',
  price_proAnnual: 'year',
};

type Json = Record<string, unknown>;
export interface FakeRequest {
  method: string;
  path: string;
  body: Json;
  query: Json;
  idempotencyKey?: string;
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=1` into nested objects and arrays, as Stripe reads its form bodies. */
export function parseForm(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const container = node as Record<string, unknown>;
      if (last) container[part] = value;
      else {
        container[part] ??= /^\d+$/.test(path[i + 1]) ? [] : {};
        node = container[part] as Record<string, unknown>;
      }
    });
  }
  return root;
}

export interface FakeStripe {
  url: string;
  requests: FakeRequest[];
  customers: Map<string, Json>;
  subscriptions: Map<string, Json>;
  promotionCodes: Json[];
  invoices: Json[];
  /** Adds an active promotion code for a coupon (percent or amount off). */
  addPromotionCode(code: string, coupon: { percent_off?: number; amount_off?: number }, extra?: Json): Json;
  /** Changes a subscription as Stripe would on its own (a payment, a failure, the period's end). */
  setStatus(subscriptionId: string, status: string): Json;
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeRequest[] = [];
  const customers = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const promotionCodes: Json[] = [];
  const invoices: Json[] = [];

  const priceObject = (priceId: string) => ({
    id: priceId,
    object: 'price',
    active: true,
    currency: 'usd',
    unit_amount: UNIT_AMOUNT[priceId],
    recurring: { interval: INTERVAL[priceId], interval_count: 1 },
    type: 'recurring',
  });

  const item = (priceId: string, start: number) => ({
    id: id('si'),
    object: 'subscription_item',
    price: priceObject(priceId),
    quantity: 1,
    current_period_start: start,
    current_period_end: start + (INTERVAL[priceId] === 'year' ? 365 : 30) * 86400,
  });

  function invoiceFor(subscription: Json, amount: number): Json {
    const invoice = {
      id: id('in'),
      object: 'invoice',
      number: `INV-${invoices.length + 1}`,
      customer: subscription.customer,
      created: now(),
      amount_paid: 0,
      amount_due: amount,
      currency: 'usd',
      status: 'open',
      hosted_invoice_url: `https://invoice.stripe.com/i/${invoices.length + 1}`,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id, metadata: {} },
        quote_details: null,
      },
      confirmation_secret: {
        type: 'payment_intent',
        client_secret: `pi_${randomBytes(6).toString('hex')}_secret_${randomBytes(6).toString('hex')}`,
      },
    };
    invoices.unshift(invoice);
    return invoice;
  }

  function discountOf(body: Json): { discounts: string[]; percent: number } {
    const given = (body.discounts as Json[] | undefined)?.[0]?.promotion_code as string | undefined;
    const promotion = promotionCodes.find((p) => p.id === given);
    if (given && !promotion)
      throw Object.assign(new Error(`No such promotion code: '${given}'`), { status: 400, param: 'discounts' });
    if (promotion) promotion.times_redeemed = (promotion.times_redeemed as number) + 1;
    const coupon = (promotion?.promotion as { coupon: Json } | undefined)?.coupon;
    return { discounts: promotion ? [id('di')] : [], percent: (coupon?.percent_off as number | undefined) ?? 0 };
  }

  function createSubscription(body: Json): Json {
    const priceId = (body.items as Json[])[0].price as string;
    if (!UNIT_AMOUNT[priceId])
      throw Object.assign(new Error(`No such price: '${priceId}'`), { status: 400, param: 'items[0][price]' });
    if (!customers.has(body.customer as string))
      throw Object.assign(new Error(`No such customer: '${body.customer}'`), { status: 400, param: 'customer' });
    const { discounts, percent } = discountOf(body);
    const subscription: Json = {
      id: id('sub'),
      object: 'subscription',
      customer: body.customer,
      status: 'incomplete',
      created: now(),
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      metadata: body.metadata ?? {},
      discounts,
      items: { object: 'list', data: [item(priceId, now())], has_more: false },
    };
    const amount = Math.round(UNIT_AMOUNT[priceId] * (1 - percent / 100));
    const invoice = invoiceFor(subscription, amount);
    subscription.latest_invoice = invoice.id;
    // Nothing to pay (a 100 % coupon): Stripe activates the subscription at once.
    if (amount === 0) {
      subscription.status = 'active';
      invoice.status = 'paid';
    }
    subscriptions.set(subscription.id as string, subscription);
    return { ...subscription, latest_invoice: invoice };
  }

  function updateSubscription(subscription: Json, body: Json): Json {
    if (body.cancel_at_period_end !== undefined)
      subscription.cancel_at_period_end = body.cancel_at_period_end === 'true';
    const items = body.items as Json[] | undefined;
    if (items) {
      const current = (subscription.items as { data: Json[] }).data;
      const index = current.findIndex((i) => i.id === items[0].id);
      if (index < 0)
        throw Object.assign(new Error('A subscription item is required'), { status: 400, param: 'items[0][id]' });
      current[index] = {
        ...item(items[0].price as string, current[index].current_period_start as number),
        id: current[index].id,
      };
    }
    if (body.discounts) subscription.discounts = discountOf(body).discounts;
    return subscription;
  }

  async function route(req: FakeRequest): Promise<Json> {
    const [, , resource, key] = req.path.split('/');
    if (req.method === 'POST' && resource === 'customers' && !key) {
      const customer = {
        id: id('cus'),
        object: 'customer',
        email: req.body.email,
        name: req.body.name,
        metadata: req.body.metadata ?? {},
        created: now(),
      };
      customers.set(customer.id, customer);
      return customer;
    }
    if (resource === 'subscriptions') {
      if (req.method === 'POST' && !key) return createSubscription(req.body);
      const subscription = subscriptions.get(key);
      if (!subscription) throw Object.assign(new Error(`No such subscription: '${key}'`), { status: 404, param: 'id' });
      if (req.method === 'GET') return subscription;
      if (req.method === 'POST') return updateSubscription(subscription, req.body);
      if (req.method === 'DELETE') {
        subscription.status = 'canceled';
        subscription.canceled_at = now();
        return subscription;
      }
    }
    if (req.method === 'GET' && resource === 'promotion_codes') {
      const data = promotionCodes.filter(
        (p) => (!req.query.code || p.code === req.query.code) && (req.query.active !== 'true' || p.active),
      );
      return {
        object: 'list',
        url: '/v1/promotion_codes',
        has_more: false,
        data: data.slice(0, Number(req.query.limit ?? 10)),
      };
    }
    if (req.method === 'GET' && resource === 'prices' && UNIT_AMOUNT[key]) return priceObject(key);
    if (req.method === 'POST' && resource === 'billing_portal' && key === 'sessions') {
      if (!customers.has(req.body.customer as string))
        throw Object.assign(new Error(`No such customer: '${req.body.customer}'`), { status: 400, param: 'customer' });
      return {
        id: id('bps'),
        object: 'billing_portal.session',
        customer: req.body.customer,
        return_url: req.body.return_url,
        url: `https://billing.stripe.com/p/session/${id('test')}`,
      };
    }
    if (req.method === 'GET' && resource === 'invoices') {
      const data = invoices.filter((i) => i.customer === req.query.customer).slice(0, Number(req.query.limit ?? 10));
      return { object: 'list', url: '/v1/invoices', has_more: false, data };
    }
    throw Object.assign(new Error(`Unrecognized request URL (${req.method}: ${req.path})`), { status: 404 });
  }

  function answer(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(body));
  }

  const server: Server = createServer((request: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const text = Buffer.concat(chunks).toString();
      const req: FakeRequest = {
        method: request.method ?? 'GET',
        path: url.pathname,
        body: parseForm(text),
        query: parseForm(url.search.slice(1)),
        idempotencyKey: request.headers['idempotency-key'] as string | undefined,
      };
      requests.push(req);
      if (request.headers.authorization !== `Bearer ${FAKE_STRIPE_KEY}`) {
        answer(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
        return;
      }
      route(req).then(
        (body) => answer(res, 200, body),
        (error: Error & { status?: number; param?: string }) =>
          answer(res, error.status ?? 500, {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: error.message,
              param: error.param,
            },
          }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    customers,
    subscriptions,
    promotionCodes,
    invoices,
    addPromotionCode(code, coupon, extra = {}) {
      const promotion = {
        id: id('promo'),
        object: 'promotion_code',
        active: true,
        code,
        created: now(),
        customer: null,
        expires_at: null,
        livemode: false,
        max_redemptions: null,
        metadata: {},
        times_redeemed: 0,
        restrictions: { first_time_transaction: false, minimum_amount: null, minimum_amount_currency: null },
        promotion: {
          type: 'coupon',
          coupon: {
            id: id('co'),
            object: 'coupon',
            valid: true,
            percent_off: coupon.percent_off ?? null,
            amount_off: coupon.amount_off ?? null,
            currency: 'usd',
            duration: 'once',
          },
        },
        ...extra,
      };
      promotionCodes.push(promotion);
      return promotion;
    },
    setStatus(subscriptionId, status) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
      subscription.status = status;
      if (status === 'active') {
        const invoice = invoices.find((i) => i.id === subscription.latest_invoice);
        if (invoice) Object.assign(invoice, { status: 'paid', amount_paid: invoice.amount_due });
      }
      return subscription;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
