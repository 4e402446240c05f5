import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  ForgotPasswordBody,
  LoginBody,
  LoginResponse,
  PasswordSetResponse,
  RegisterBody,
  RegisterResponse,
  ResendVerificationBody,
  ResetPasswordBody,
  TokenBody,
  ValidateResetTokenResponse,
  VerifyEmailQuery,
  VerifyEmailResponse,
} from '@contracts/auth';
import { MessageBody } from '@contracts/errors';
import type { AppContext } from '../platform/context';
import { isRememberedDevice, rememberDevice } from '../platform/http/device-cookie';
import { endSession, startSession } from '../platform/http/session';
import { toUser } from './accounts.service';
import {
  checkResetToken,
  login,
  register,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  verifyEmail,
} from './auth.service';

export async function authRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/register',
    { schema: { body: RegisterBody, response: { 200: RegisterResponse } } },
    async (request, reply) => {
      const { user, emailSent } = await register(ctx, request.body, request.ip);
      await startSession(ctx.db, user.id, request, reply);
      rememberDevice(request, reply, user.id, ctx.env.APP_SECRET);
      const message = emailSent ? AUTH_MESSAGES.registeredEmailSent : AUTH_MESSAGES.registeredVerified;
      return { user: toUser(user), emailSent, message };
    },
  );

  r.post('/api/login', { schema: { body: LoginBody, response: { 200: LoginResponse } } }, async (request, reply) => {
    const secret = ctx.env.APP_SECRET;
    const user = await login(ctx.db, request.body, request.ip, (id) => isRememberedDevice(request, id, secret));
    await startSession(ctx.db, user.id, request, reply);
    rememberDevice(request, reply, user.id, secret);
    return { user: toUser(user) };
  });

  r.post('/api/logout', { schema: { response: { 200: MessageBody } } }, async (request, reply) => {
    await endSession(ctx.db, request, reply);
    return { message: 'Signed out' };
  });

  r.post(
    '/api/forgot-password',
    { schema: { body: ForgotPasswordBody, response: { 200: MessageBody } } },
    async (request) => {
      await requestPasswordReset(ctx, request.body.email, request.ip);
      return { message: AUTH_MESSAGES.forgotDone };
    },
  );

  r.post(
    '/api/validate-reset-token',
    { schema: { body: TokenBody, response: { 200: ValidateResetTokenResponse } } },
    async (request) => {
      await checkResetToken(ctx.db, request.body.token);
      return { valid: true as const };
    },
  );

  r.post(
    '/api/reset-password',
    { schema: { body: ResetPasswordBody, response: { 200: PasswordSetResponse } } },
    async (request) => {
      const { apiAccessRevoked } = await resetPassword(ctx.db, request.body);
      return { message: AUTH_MESSAGES.passwordReset, apiAccessRevoked };
    },
  );

  r.get(
    '/api/verify-email',
    { schema: { querystring: VerifyEmailQuery, response: { 200: VerifyEmailResponse } } },
    async (request) => {
      const { message, email } = await verifyEmail(ctx.db, request.query.token);
      return { message, user: { email } };
    },
  );

  r.post(
    '/api/verify-email',
    { schema: { body: TokenBody, response: { 200: VerifyEmailResponse } } },
    async (request) => {
      const { message, email } = await verifyEmail(ctx.db, request.body.token);
      return { message, user: { email } };
    },
  );

  r.post(
    '/api/resend-verification-public',
    { schema: { body: ResendVerificationBody, response: { 200: MessageBody } } },
    async (request) => {
      await resendVerification(ctx, request.body.email, request.ip);
      return { message: AUTH_MESSAGES.resendDone };
    },
  );
}
