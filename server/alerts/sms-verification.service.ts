import { randomInt, timingSafeEqual } from 'node:crypto';
import {
  SMS_CODE_MINUTES,
  SMS_CODE_TRIES,
  SMS_UNAVAILABLE,
  SMS_VERIFICATION_MESSAGES,
} from '@contracts/alert-settings';
import { requireFeature } from '../plans/plan-gate.service';
import type { AppContext } from '../platform/context';
import type { UserRow } from '../platform/db/schema/index';
import { AppError } from '../platform/errors';
import { enforceRateLimit, RATE_RULES } from '../platform/security/rate-limit';
import { hashToken } from '../platform/security/tokens';
import { findAlertSettings, lockAlertSettings, saveSmsVerification } from './alert-settings.repo';
import { sendSms, TwilioError, twilioSettingsOf } from './channels/twilio';

/*
 * An SMS number is proven before any alert is texted to it: the owner asks for a code, it is texted to the saved
 * number, and the owner types it back. Without this the server's Twilio number would text anyone any number the
 * account chose. Codes are 6 digits, kept hashed with the user's id, good for 10 minutes and 5 tries, at most 5
 * an hour; every text counts against the account's 20 SMS a day.
 */

const codeHash = (userId: number, code: string) => hashToken(`sms-code:${userId}:${code}`);

/** POST /api/alert-settings/sms-code: texts a new code to the saved number; the answer says where it went. */
export async function sendSmsCode(ctx: AppContext, user: UserRow): Promise<{ message: string }> {
  requireFeature(user, 'advanced_alerting');
  const twilio = twilioSettingsOf(ctx.env);
  if (!twilio) throw new AppError('conflict', SMS_UNAVAILABLE);
  const settings = await findAlertSettings(ctx.db, user.id);
  if (!settings?.smsNumber) throw new AppError('validation_error', SMS_VERIFICATION_MESSAGES.noNumber);
  if (settings.smsVerifiedAt) throw new AppError('conflict', SMS_VERIFICATION_MESSAGES.alreadyVerified);
  await enforceRateLimit(ctx.db, RATE_RULES.smsCodesPerUser, String(user.id));
  await enforceRateLimit(ctx.db, RATE_RULES.smsPerUserPerDay, String(user.id));
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await saveSmsVerification(ctx.db, user.id, {
    smsCodeHash: codeHash(user.id, code),
    smsCodeExpiresAt: new Date(Date.now() + SMS_CODE_MINUTES * 60_000),
    smsCodeTries: 0,
  });
  try {
    // No text of the account's in it: only the code and what it is for.
    await sendSms(
      twilio,
      settings.smsNumber,
      `InboxPulse code: ${code}. Enter it in Alert Settings to get critical alerts by SMS. It expires in ${SMS_CODE_MINUTES} minutes.`,
    );
  } catch (err) {
    if (!(err instanceof TwilioError)) throw err;
    const refused = err.httpStatus !== null && err.httpStatus >= 400 && err.httpStatus < 500 && err.httpStatus !== 429;
    throw new AppError(refused ? 'validation_error' : 'unavailable', `The code could not be texted: ${err.message}`);
  }
  return { message: SMS_VERIFICATION_MESSAGES.sent(settings.smsNumber) };
}

/** POST /api/alert-settings/sms-code/verify: the texted code proves the number; a wrong one uses up a try. */
export async function confirmSmsCode(ctx: AppContext, userId: number, code: string): Promise<void> {
  // The wrong try is counted in the transaction, and refused after it commits.
  const right = await ctx.db.transaction(async (tx) => {
    const settings = await lockAlertSettings(tx, userId);
    if (!settings.smsNumber) throw new AppError('validation_error', SMS_VERIFICATION_MESSAGES.noNumber);
    if (settings.smsVerifiedAt) throw new AppError('conflict', SMS_VERIFICATION_MESSAGES.alreadyVerified);
    const live =
      settings.smsCodeHash !== null &&
      settings.smsCodeExpiresAt !== null &&
      settings.smsCodeExpiresAt.getTime() > Date.now() &&
      settings.smsCodeTries < SMS_CODE_TRIES;
    if (!live) throw new AppError('validation_error', SMS_VERIFICATION_MESSAGES.expired);
    const right = timingSafeEqual(Buffer.from(settings.smsCodeHash!), Buffer.from(codeHash(userId, code)));
    if (right) {
      await saveSmsVerification(tx, userId, {
        smsVerifiedAt: new Date(),
        smsCodeHash: null,
        smsCodeExpiresAt: null,
        smsCodeTries: 0,
      });
    } else {
      await saveSmsVerification(tx, userId, { smsCodeTries: settings.smsCodeTries + 1 });
    }
    return right;
  });
  if (!right) throw new AppError('validation_error', SMS_VERIFICATION_MESSAGES.wrong);
}
