import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { PlanId } from '@contracts/plans';
import type { TestApp } from '../test/test-app';
import type { TestClient } from '../test/test-app';

/** Puts the user on a plan as billing would: the row changes, the triggers tell every process. */
export async function setPlan(t: TestApp, userId: number, plan: PlanId): Promise<void> {
  await t.database.pool.query(`UPDATE users SET subscription_plan = $2 WHERE id = $1`, [userId, plan]);
}

/** A new API key of the signed-in client's user. */
export async function newApiKey(client: TestClient): Promise<string> {
  const res = await client.post('/api/api-keys/generate');
  if (res.statusCode !== 200) throw new Error(`generate failed: ${res.statusCode} ${res.body}`);
  return res.json().apiKey;
}

/** A request as a script sends it: the key in Authorization, no cookie. */
export function withKey(
  app: FastifyInstance,
  key: string,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}`, ...headers },
    ...(body === undefined ? {} : { payload: body as object }),
  });
}
