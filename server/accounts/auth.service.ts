import { ACCOUNT_MESSAGES, type ChangePasswordBody } from '@contracts/account';
import { AUTH_MESSAGES, type LoginBody, type RegisterBody, type ResetPasswordBody } from '@contracts/auth';
import type { AppContext } from '../platform/context';
import type { Db, Executor } from '../platform/db/client';
import { isUniqueViolation } from '../platform/db/errors';
import { AppError } from '../platform/errors';
import {
  countAgainst,
  enforceRateLimit,
  RATE_RULES,
  rateLimited,
  rateLimitUsedUp,
} from '../platform/security/rate-limit';
import { endAllSessions, forgetCachedUser } from '../platform/http/session';
import { queueMail } from '../platform/mail/outbox';
import { sendEmailJob } from '../platform/mail/send-email.job';
import { resetPasswordTemplate, verifyEmailTemplate } from './account-emails';
import { revokeApiAccess } from '../api-keys/api-keys.service';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../platform/security/passwords';
import { deleteOtherUserSessions } from '../platform/http/sessions.repo';
import {
  findUserByEmail,
  findUserById,
  findUserByLogin,
  findUserByUsername,
  insertUser,
  markEmailVerified,
  updateUser,
  type UserRow,
} from './users.repo';
import { consumeToken, findTokenOwner, issueToken, peekToken, retireTokens } from './auth-tokens.repo';

const RESET_TTL_SECONDS = 60 * 60; // part 1, section 9: reset links live 1 hour
const VERIFY_TTL_SECONDS = 24 * 60 * 60;

const USERNAME_TAKEN = 'Username already exists';
const EMAIL_TAKEN = 'An account with this email already exists';

/** What the operations that mail someone need. */
type MailingContext = Pick<AppContext, 'db' | 'mailer' | 'jobs' | 'env' | 'log'>;

/** Writes a verification mail in the caller's transaction; returns the outbox id to deliver. */
async function queueVerification(ctx: MailingContext, tx: Executor, user: UserRow): Promise<number | null> {
  const token = await issueToken(tx, user.id, 'verify_email', VERIFY_TTL_SECONDS);
  const mail = verifyEmailTemplate(user.username, `${ctx.env.APP_URL}/verify-email?token=${token}`);
  return queueMail(tx, ctx.mailer, { ...mail, to: user.email, userId: user.id, kind: 'verify_email' }, ctx.log);
}

// After commit, never inside the transaction: the job runs on another connection and must find the outbox row.
async function deliver(ctx: MailingContext, outboxId: number | null): Promise<void> {
  if (outboxId !== null) await ctx.jobs.send(sendEmailJob, { outboxId });
}

/** Without SMTP the account is verified at once: nobody could ever read the link (issue 2). */
export async function register(
  ctx: MailingContext,
  body: RegisterBody,
  ip: string,
): Promise<{ user: UserRow; emailSent: boolean }> {
  const { db, mailer } = ctx;
  await enforceRateLimit(db, RATE_RULES.registerPerIp, ip);
  if (await findUserByUsername(db, body.username)) throw new AppError('conflict', USERNAME_TAKEN);
  if (await findUserByEmail(db, body.email)) throw new AppError('conflict', EMAIL_TAKEN);
  const passwordHash = await hashPassword(body.password);
  let outboxId: number | null = null;
  let user: UserRow;
  try {
    user = await db.transaction(async (tx) => {
      const row = await insertUser(
        tx,
        { username: body.username, email: body.email, passwordHash, couponCode: body.couponCode || null },
        !mailer.configured,
      );
      if (mailer.configured) outboxId = await queueVerification(ctx, tx, row);
      return row;
    });
  } catch (err) {
    // Two registrations racing for the same name: the database decides, the loser hears why.
    if (isUniqueViolation(err)) {
      const taken = await findUserByUsername(db, body.username);
      throw new AppError('conflict', taken ? USERNAME_TAKEN : EMAIL_TAKEN);
    }
    throw err;
  }
  await deliver(ctx, outboxId);
  return { user, emailSent: mailer.configured };
}

/**
 * Signs in by username or e-mail; the same message and about the same time for an unknown user and a wrong
 * password. Wrong passwords are counted per account (username and e-mail are one account) from each address, and
 * per account overall; past the overall limit only a browser this user signed in on before (`knownDevice`, the
 * remember-device cookie) gets in, so guessing from anywhere cannot lock the owner out of the browsers they use.
 */
export async function login(
  db: Db,
  body: LoginBody,
  ip: string,
  knownDevice: (userId: number) => boolean,
): Promise<UserRow> {
  await enforceRateLimit(db, RATE_RULES.loginPerIp, ip);
  const user = await findUserByLogin(db, body.username);
  if (!user) {
    await burnPasswordCheck(body.password);
    throw new AppError('unauthorized', AUTH_MESSAGES.invalidLogin);
  }
  const anywhere = await refuseGuessing(db, user.id, ip);
  if (anywhere.usedUp && !knownDevice(user.id)) throw rateLimited(anywhere.retryAfter);
  if (!(await verifyPassword(user.passwordHash, body.password))) {
    await countWrongPassword(db, user.id, ip);
    throw new AppError('unauthorized', AUTH_MESSAGES.invalidLogin);
  }
  return user;
}

/** Refuses (429) an address that has guessed this account's password too often; says whether the account-wide limit is used up. */
async function refuseGuessing(db: Db, userId: number, ip: string): Promise<{ usedUp: boolean; retryAfter: number }> {
  const here = await rateLimitUsedUp(db, RATE_RULES.loginFailuresPerUserAndIp, `${userId}@${ip}`);
  if (here.usedUp) throw rateLimited(here.retryAfter);
  return rateLimitUsedUp(db, RATE_RULES.loginFailuresPerUser, String(userId));
}

async function countWrongPassword(db: Db, userId: number, ip: string): Promise<void> {
  await countAgainst(db, RATE_RULES.loginFailuresPerUserAndIp, `${userId}@${ip}`);
  await countAgainst(db, RATE_RULES.loginFailuresPerUser, String(userId));
}

/**
 * A signed-in user changes their password: the current one must be right (wrong guesses count against
 * the same limits as logins, from this address), then the new hash is stored and every other session ends, all
 * or nothing; the session of `currentIdHash` stays signed in. The API key and webhook token go too when asked.
 */
export async function changePassword(
  db: Db,
  userId: number,
  body: ChangePasswordBody,
  currentIdHash: string,
  ip: string,
): Promise<{ apiAccessRevoked: boolean }> {
  // Read afresh: the request's user may come from the session cache.
  const user = await findUserById(db, userId);
  if (!user) throw new AppError('unauthorized', AUTH_MESSAGES.notSignedIn);
  await refuseGuessing(db, userId, ip);
  if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
    await countWrongPassword(db, userId, ip);
    throw new AppError('validation_error', ACCOUNT_MESSAGES.wrongCurrentPassword);
  }
  const passwordHash = await hashPassword(body.newPassword);
  const revoked = await db.transaction(async (tx) => {
    await updateUser(tx, userId, { passwordHash });
    await deleteOtherUserSessions(tx, userId, currentIdHash);
    return body.revokeApiAccess ? revokeApiAccess(tx, userId) : undefined;
  });
  forgetCachedUser(db, userId);
  revoked?.forget(db);
  return { apiAccessRevoked: revoked?.revoked ?? false };
}

/** Answers the same whether the address has an account or not (no account enumeration). */
export async function requestPasswordReset(ctx: MailingContext, email: string, ip: string): Promise<void> {
  const { db, mailer, env, log } = ctx;
  await enforceRateLimit(db, RATE_RULES.mailPerIp, ip);
  await enforceRateLimit(db, RATE_RULES.mailPerAddress, `reset:${email}`);
  const user = await findUserByEmail(db, email);
  if (!user) return;
  const outboxId = await db.transaction(async (tx) => {
    const token = await issueToken(tx, user.id, 'reset_password', RESET_TTL_SECONDS);
    const mail = resetPasswordTemplate(user.username, `${env.APP_URL}/reset-password?token=${token}`);
    return queueMail(tx, mailer, { ...mail, to: user.email, userId: user.id, kind: 'reset_password' }, log);
  });
  await deliver(ctx, outboxId);
}

export async function checkResetToken(db: Db, token: string): Promise<void> {
  if (!(await peekToken(db, token, 'reset_password')))
    throw new AppError('invalid_token', AUTH_MESSAGES.invalidResetLink);
}

/**
 * Uses the token, sets the password and signs the user out everywhere, all or nothing. Someone else may have known
 * the old password, so the API key and webhook token are revoked in the same step unless the body says keep them.
 */
export async function resetPassword(db: Db, body: ResetPasswordBody): Promise<{ apiAccessRevoked: boolean }> {
  const passwordHash = await hashPassword(body.password);
  const { userId, revoked } = await db.transaction(async (tx) => {
    const userId = await consumeToken(tx, body.token, 'reset_password');
    if (!userId) throw new AppError('invalid_token', AUTH_MESSAGES.invalidResetLink);
    // Following a mailed link proves the address is theirs.
    await markEmailVerified(tx, userId, { passwordHash });
    await retireTokens(tx, userId, 'reset_password');
    await endAllSessions(tx, userId);
    return { userId, revoked: body.keepApiAccess ? undefined : await revokeApiAccess(tx, userId) };
  });
  forgetCachedUser(db, userId);
  revoked?.forget(db);
  return { apiAccessRevoked: revoked?.revoked ?? false };
}

export async function verifyEmail(db: Db, token: string): Promise<{ message: string; email: string }> {
  const verified = await db.transaction(async (tx) => {
    const userId = await consumeToken(tx, token, 'verify_email');
    if (!userId) return undefined;
    return markEmailVerified(tx, userId);
  });
  if (verified) {
    forgetCachedUser(db, verified.id);
    return { message: AUTH_MESSAGES.emailVerified, email: verified.email };
  }
  // A used or expired link of an address that is verified: tell the user it is already done.
  const ownerId = await findTokenOwner(db, token, 'verify_email');
  const owner = ownerId ? await findUserById(db, ownerId) : undefined;
  if (owner?.emailVerifiedAt) return { message: AUTH_MESSAGES.emailAlreadyVerified, email: owner.email };
  throw new AppError('invalid_token', AUTH_MESSAGES.invalidVerifyLink);
}

export async function resendVerification(ctx: MailingContext, email: string, ip: string): Promise<void> {
  const { db } = ctx;
  await enforceRateLimit(db, RATE_RULES.mailPerIp, ip);
  await enforceRateLimit(db, RATE_RULES.mailPerAddress, `verify:${email}`);
  const user = await findUserByEmail(db, email);
  if (!user || user.emailVerifiedAt) return;
  const outboxId = await db.transaction((tx) => queueVerification(ctx, tx, user));
  await deliver(ctx, outboxId);
}
