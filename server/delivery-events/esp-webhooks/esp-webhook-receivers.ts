import type { IncomingHttpHeaders } from 'node:http';
import type { EspWebhookProvider } from '@contracts/esp-webhooks';
import type { AppContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { appOutboundGuard } from '../../platform/security/app-outbound-guard';
import { decryptSecret } from '../../platform/security/secret-box';
import { ignored, record, type RowOutcome } from '../delivery-event';
import { checkBatchSize } from '../delivery-events.service';
import { sesRows } from './amazon-ses';
import { confirmSubscription, snsMessageOf, SnsError, SnsUnreachable, verifySnsMessage } from './amazon-sns';
import { claimNonce, sealedSecretOf } from './esp-webhooks.repo';
import { MAILGUN_MAX_AGE_SECONDS, mailgunRow, mailgunSignatureOf, mailgunSignatureProblem } from './mailgun';
import { basicAuthMatches } from './basic-auth';
import { postmarkRow } from './postmark';
import { sparkpostRows } from './sparkpost';
import { mailjetRows } from './mailjet';
import { brevoRow } from './brevo';
import {
  SENDGRID_SIGNATURE_HEADER,
  SENDGRID_TIMESTAMP_HEADER,
  sendgridKey,
  sendgridRows,
  sendgridSignatureValid,
} from './sendgrid';

/** A post as it arrived: the body's bytes exactly (signatures cover them) and the headers. */
export interface EspPost {
  body: Buffer;
  headers: IncomingHttpHeaders;
}

/** What a verified post comes to: its events, or the SNS subscription it confirmed. */
export type Received = { rows: RowOutcome[] } | { confirmed: string };

const NAMES: Record<EspWebhookProvider, string> = {
  sendgrid: 'SendGrid',
  mailgun: 'Mailgun',
  postmark: 'Postmark',
  ses: 'Amazon SES',
  sparkpost: 'SparkPost',
  mailjet: 'Mailjet',
  brevo: 'Brevo',
};

const SECRET_NAMES: Record<EspWebhookProvider, string> = {
  sendgrid: 'verification key',
  mailgun: 'HTTP webhook signing key',
  postmark: 'basic-auth credentials',
  ses: '',
  sparkpost: 'basic-auth credentials',
  mailjet: 'basic-auth credentials',
  brevo: 'basic-auth credentials',
};

function json(post: EspPost, provider: EspWebhookProvider): unknown {
  try {
    return JSON.parse(post.body.toString('utf8'));
  } catch {
    throw new AppError('validation_error', `The body is not JSON: ${NAMES[provider]} posts its events as JSON`);
  }
}

async function secretOf(ctx: AppContext, userId: number, provider: EspWebhookProvider): Promise<string | null> {
  const box = await sealedSecretOf(ctx.db, userId, provider);
  return box ? decryptSecret(box, ctx.env.APP_SECRET) : null;
}

async function requiredSecret(ctx: AppContext, userId: number, provider: EspWebhookProvider): Promise<string> {
  const secret = await secretOf(ctx, userId, provider);
  if (!secret)
    throw new AppError(
      'forbidden',
      `No ${NAMES[provider]} ${SECRET_NAMES[provider]} is saved: paste it in Integrations, ESP event webhooks, so InboxPulse can check that events come from ${NAMES[provider]}`,
    );
  return secret;
}

const header = (post: EspPost, name: string) => {
  const value = post.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
};

async function sendgrid(ctx: AppContext, userId: number, post: EspPost): Promise<Received> {
  const key = sendgridKey(await requiredSecret(ctx, userId, 'sendgrid'));
  const signature = header(post, SENDGRID_SIGNATURE_HEADER);
  const timestamp = header(post, SENDGRID_TIMESTAMP_HEADER);
  if (!signature || !timestamp)
    throw new AppError(
      'unauthorized',
      'Unsigned SendGrid post: turn on Signed Event Webhook Requests in SendGrid (Settings, Mail Settings, Event Webhook)',
    );
  if (!key || !sendgridSignatureValid(key, timestamp, signature, post.body))
    throw new AppError(
      'unauthorized',
      'Invalid SendGrid signature: check the verification key saved in InboxPulse against the one SendGrid shows',
    );
  const body = json(post, 'sendgrid');
  const events = Array.isArray(body) ? body : [body];
  checkBatchSize(events.length);
  return { rows: sendgridRows(events) };
}

async function mailgun(ctx: AppContext, userId: number, post: EspPost): Promise<Received> {
  const key = await requiredSecret(ctx, userId, 'mailgun');
  const body = record(json(post, 'mailgun'));
  const signature = body && mailgunSignatureOf(body);
  if (!body || !signature)
    throw new AppError(
      'unauthorized',
      'Unsigned Mailgun post: InboxPulse takes Mailgun’s JSON webhooks, whose body carries a signature object',
    );
  const problem = mailgunSignatureProblem(key, signature);
  if (problem) throw new AppError('unauthorized', problem);
  if (!(await claimNonce(ctx.db, userId, 'mailgun', signature.token, 2 * MAILGUN_MAX_AGE_SECONDS)))
    throw new AppError('unauthorized', 'Mailgun post refused: its signature token was used before (a replayed post)');
  return { rows: [mailgunRow(body)] };
}

/** The ESPs that sign nothing: once the user saves credentials, a post must carry them. */
type UnsignedProvider = 'postmark' | 'sparkpost' | 'mailjet' | 'brevo';
async function requireCredentials(ctx: AppContext, userId: number, provider: UnsignedProvider, post: EspPost) {
  const credentials = await secretOf(ctx, userId, provider);
  if (credentials && !basicAuthMatches(credentials, header(post, 'authorization')))
    throw new AppError(
      'unauthorized',
      `Wrong or missing basic-auth credentials: give ${NAMES[provider]} the ones saved in InboxPulse`,
      { 'www-authenticate': `Basic realm="InboxPulse ${NAMES[provider]} webhook"` },
    );
}

async function postmark(ctx: AppContext, userId: number, post: EspPost): Promise<Received> {
  await requireCredentials(ctx, userId, 'postmark', post);
  const body = record(json(post, 'postmark'));
  return { rows: [body ? postmarkRow(body) : ignored('not a Postmark record')] };
}

/** SparkPost and Mailjet post arrays of events (Mailjet one event when grouping is off), Brevo one event. */
const PARSERS: Record<Exclude<UnsignedProvider, 'postmark'>, (events: unknown[]) => RowOutcome[]> = {
  sparkpost: sparkpostRows,
  mailjet: mailjetRows,
  brevo: (events) => events.map(brevoRow),
};

async function unsignedBatch(
  ctx: AppContext,
  userId: number,
  provider: Exclude<UnsignedProvider, 'postmark'>,
  post: EspPost,
): Promise<Received> {
  await requireCredentials(ctx, userId, provider, post);
  const body = json(post, provider);
  const events = Array.isArray(body) ? body : [body];
  checkBatchSize(events.length);
  return { rows: PARSERS[provider](events) };
}

async function ses(ctx: AppContext, post: EspPost): Promise<Received> {
  try {
    const message = snsMessageOf(json(post, 'ses'));
    const outbound = appOutboundGuard(ctx.env, ctx.dns);
    await verifySnsMessage(outbound, message);
    if (message.type === 'SubscriptionConfirmation') {
      await confirmSubscription(outbound, message);
      return { confirmed: message.topicArn };
    }
    if (message.type === 'UnsubscribeConfirmation') return { rows: [ignored('an unsubscribe confirmation')] };
    return { rows: sesRows(message.message) };
  } catch (err) {
    if (err instanceof SnsUnreachable) throw new AppError('unavailable', err.message);
    if (err instanceof SnsError) throw new AppError('unauthorized', err.message);
    throw err;
  }
}

/**
 * Verifies a post by its provider's documented signature or credentials and reads its events; throws 401 or 403
 * saying why otherwise, before anything is stored.
 */
export async function receiveEspPost(
  ctx: AppContext,
  userId: number,
  provider: EspWebhookProvider,
  post: EspPost,
): Promise<Received> {
  const received =
    provider === 'sendgrid'
      ? await sendgrid(ctx, userId, post)
      : provider === 'mailgun'
        ? await mailgun(ctx, userId, post)
        : provider === 'postmark'
          ? await postmark(ctx, userId, post)
          : provider === 'ses'
            ? await ses(ctx, post)
            : await unsignedBatch(ctx, userId, provider, post);
  // A notification naming no recipient is read and not used, like any other post without an outcome.
  if ('rows' in received && received.rows.length === 0) return { rows: [ignored('no recipient named')] };
  return received;
}
