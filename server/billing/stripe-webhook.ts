import type Stripe from 'stripe';
import type { Logger } from 'pino';
import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { recordStripeEvent, stripeEventSeen } from './billing.repo';
import { stripeFailure, type StripeSettings } from './stripe-client';
import { applyStripeSubscription } from './stripe-subscription-state';

export const BAD_SIGNATURE = 'Invalid Stripe signature';
export const NOT_AN_EVENT = 'Not a Stripe event: a signed event needs an id, a type and data.object';

/** A signed body is still only what its sender wrote: an event this code reads has an id, a type and an object. */
function isReadableEvent(event: Stripe.Event): boolean {
  const data = (event as { data?: unknown }).data;
  const object = data && typeof data === 'object' ? (data as { object?: unknown }).object : undefined;
  return typeof event.id === 'string' && typeof event.type === 'string' && !!object && typeof object === 'object';
}

/** The subscription an event is about: its own object, or an invoice's subscription. */
function subscriptionIdOf(event: Stripe.Event): string | undefined {
  const object = event.data.object as { object?: string; id?: string; parent?: Stripe.Invoice['parent'] };
  if (object.object === 'subscription') return object.id;
  if (object.object === 'invoice') {
    const subscription = object.parent?.subscription_details?.subscription;
    return subscription ? (typeof subscription === 'string' ? subscription : subscription.id) : undefined;
  }
  return undefined;
}

function ownSubscription(event: Stripe.Event): Stripe.Subscription | undefined {
  const object = event.data.object as { object?: string };
  return object.object === 'subscription' ? (object as Stripe.Subscription) : undefined;
}

/**
 * POST /api/stripe/webhook (ADR 033). The signature is checked on the body's raw bytes with the SDK;
 * then, for an event about a subscription (its own events, its invoices' paid and failed), the
 * subscription is fetched from Stripe and its current truth applied: events come late, twice and out
 * of order, and the truth now is right whatever order they came in. The event id is stored in the
 * transaction of its effect, so a replayed event changes nothing. Returns the user whose state changed.
 */
export async function receiveStripeEvent(
  db: Db,
  stripe: Stripe,
  settings: StripeSettings,
  log: Logger,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<number | undefined> {
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature ?? '', settings.webhookSecret);
  } catch {
    throw new AppError('validation_error', BAD_SIGNATURE);
  }
  if (!isReadableEvent(event)) throw new AppError('validation_error', NOT_AN_EVENT);
  if (await stripeEventSeen(db, event.id)) return undefined;
  const subscriptionId = subscriptionIdOf(event);
  let truth: Stripe.Subscription | undefined;
  if (subscriptionId) {
    try {
      truth = await stripe.subscriptions.retrieve(subscriptionId);
    } catch (error) {
      // Gone from Stripe (deleted in test mode, another account's): the event's own copy is all there is.
      if ((error as { statusCode?: number }).statusCode === 404) truth = ownSubscription(event);
      // Otherwise unanswered: a 5xx, not a record of it, so Stripe sends the event again later.
      else throw stripeFailure(error, log);
    }
  }
  return db.transaction(async (tx) => {
    if (!(await recordStripeEvent(tx, event.id, event.type))) return undefined;
    return truth ? applyStripeSubscription(tx, truth, settings.prices) : undefined;
  });
}
