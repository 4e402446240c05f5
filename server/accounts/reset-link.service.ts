import type { Executor } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { issueToken } from './auth-tokens.repo';
import { findUserByLogin } from './users.repo';

/** Reset links live 1 hour (part 1, section 9), however they are handed out. */
export const RESET_TTL_SECONDS = 60 * 60;

/**
 * A fresh password-reset link for the account with this e-mail address or username, for an operator
 * to hand over when the app sends no mail (no SMTP_URL): the link is never logged or kept in the
 * outbox, so this is the one way to get one (`npm run reset-link`).
 */
export async function issueResetLink(
  ex: Executor,
  appUrl: string,
  login: string,
): Promise<{ username: string; email: string; link: string }> {
  const user = await findUserByLogin(ex, login.trim());
  if (!user)
    throw new AppError(
      'not_found',
      `No account has the ${login.includes('@') ? 'e-mail address' : 'username'} ${login}.`,
    );
  const token = await issueToken(ex, user.id, 'reset_password', RESET_TTL_SECONDS);
  return { username: user.username, email: user.email, link: `${appUrl}/reset-password?token=${token}` };
}
