import Stripe from 'stripe';
import type { BillingPriceId } from '@contracts/billing';
import type { Env } from '../platform/env';
import { AppError } from '../platform/errors';
import type { StripePrices } from './stripe-subscription-state';

export type StripeEnv = Pick<
  Env,
  | 'STRIPE_SECRET_KEY'
  | 'STRIPE_PUBLISHABLE_KEY'
  | 'STRIPE_WEBHOOK_SECRET'
  | 'STRIPE_PRICE_STARTER_MONTHLY'
  | 'STRIPE_PRICE_PROFESSIONAL_MONTHLY'
  | 'STRIPE_PRICE_PROFESSIONAL_ANNUAL'
  | 'STRIPE_API_BASE'
>;

/** Stripe's settings once env.ts has checked that all of them are there. */
export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  prices: StripePrices;
  apiBase: string;
}

/** Stripe mode's settings, or undefined for self-hosted billing (env.ts allows all or none). */
export function stripeSettings(env: StripeEnv): StripeSettings | undefined {
  const {
    STRIPE_SECRET_KEY: secretKey,
    STRIPE_PUBLISHABLE_KEY: publishableKey,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
  } = env;
  const starter = env.STRIPE_PRICE_STARTER_MONTHLY;
  const professional = env.STRIPE_PRICE_PROFESSIONAL_MONTHLY;
  const annual = env.STRIPE_PRICE_PROFESSIONAL_ANNUAL;
  if (!secretKey || !publishableKey || !webhookSecret || !starter || !professional || !annual) return undefined;
  const stripeId: Record<BillingPriceId, string> = {
    starter_monthly: starter,
    professional_monthly: professional,
    professional_annual: annual,
  };
  const ours = new Map(Object.entries(stripeId).map(([price, id]) => [id, price as BillingPriceId]));
  return { secretKey, publishableKey, webhookSecret, prices: { stripeId, ours }, apiBase: env.STRIPE_API_BASE };
}

/** The official SDK, pointed at STRIPE_API_BASE (Stripe's API, or a loopback stand-in in tests). */
export function createStripeClient(settings: StripeSettings): Stripe {
  const base = new URL(settings.apiBase);
  return new Stripe(settings.secretKey, {
    host: base.hostname,
    port: base.port || (base.protocol === 'https:' ? 443 : 80),
    protocol: base.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'InboxPulse' },
  });
}

/** What a user reads when Stripe cannot be reached or refuses a call (part 2, section 8). */
export const PAYMENT_UNAVAILABLE = 'Payment system unavailable. Please try again later.';

/**
 * Stripe's failures as the app's errors: the user gets the spec's words, the log gets Stripe's type,
 * code and request id (never the key or a card detail: Stripe's errors carry neither).
 */
export function stripeFailure(error: unknown, log: { warn(obj: object, msg: string): void }): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof Stripe.errors.StripeError) {
    log.warn(
      { stripeType: error.type, stripeCode: error.code, stripeRequestId: error.requestId, status: error.statusCode },
      'stripe call failed',
    );
    // A card refused while changing the subscription: the user can act on Stripe's own words.
    if (error.type === 'StripeCardError') return new AppError('validation_error', error.message);
    return new AppError('unavailable', PAYMENT_UNAVAILABLE);
  }
  log.warn({ err: error }, 'stripe call failed');
  return new AppError('unavailable', PAYMENT_UNAVAILABLE);
}
