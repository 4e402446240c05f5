import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Executor } from '../platform/db/client';
import { authTokens } from '../platform/db/schema/index';
import { hashToken, newToken } from '../platform/security/tokens';

export type TokenPurpose = 'reset_password' | 'verify_email';

/** Creates a single-use token and returns the plain value, which is only ever mailed. */
export async function issueToken(
  ex: Executor,
  userId: number,
  purpose: TokenPurpose,
  ttlSeconds: number,
): Promise<string> {
  const token = newToken();
  await ex.insert(authTokens).values({
    tokenHash: hashToken(token),
    userId,
    purpose,
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}

const usable = (token: string, purpose: TokenPurpose) =>
  and(
    eq(authTokens.tokenHash, hashToken(token)),
    eq(authTokens.purpose, purpose),
    isNull(authTokens.usedAt),
    gt(authTokens.expiresAt, sql`now()`),
  );

/** The user id of a token that is still usable, without using it up. */
export async function peekToken(ex: Executor, token: string, purpose: TokenPurpose): Promise<number | undefined> {
  const [row] = await ex.select({ userId: authTokens.userId }).from(authTokens).where(usable(token, purpose));
  return row?.userId;
}

/** Uses a token up in one statement, so two requests racing with the same link cannot both win. */
export async function consumeToken(ex: Executor, token: string, purpose: TokenPurpose): Promise<number | undefined> {
  const [row] = await ex
    .update(authTokens)
    .set({ usedAt: sql`now()` })
    .where(usable(token, purpose))
    .returning({ userId: authTokens.userId });
  return row?.userId;
}

/** Any token row with this value, used or not: tells "already verified" from "never valid". */
export async function findTokenOwner(ex: Executor, token: string, purpose: TokenPurpose): Promise<number | undefined> {
  const [row] = await ex
    .select({ userId: authTokens.userId })
    .from(authTokens)
    .where(and(eq(authTokens.tokenHash, hashToken(token)), eq(authTokens.purpose, purpose)));
  return row?.userId;
}

export async function retireTokens(ex: Executor, userId: number, purpose: TokenPurpose): Promise<void> {
  await ex
    .update(authTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt)));
}

/** Tokens expired for over a day are dropped (the maintenance job); returns how many. */
export async function purgeExpiredTokens(db: Db): Promise<number> {
  const rows = await db
    .delete(authTokens)
    .where(lt(authTokens.expiresAt, sql`now() - interval '1 day'`))
    .returning({ id: authTokens.id });
  return rows.length;
}
