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

/** Gives the user an API key and a webhook token; `stillWork()` says whether each is still accepted. */
export async function withApiAccess(t: TestApp, client: TestClient, userId: number) {
  await setPlan(t, userId, 'professional');
  const apiKey = await newApiKey(client);
  const generated = await client.post('/api/webhook-tokens/generate');
  if (generated.statusCode !== 200) throw new Error(`token failed: ${generated.statusCode} ${generated.body}`);
  const token: string = generated.json().token;
  return {
    /** Asked without the user's session, as a script and an MTA ask. */
    async stillWork(): Promise<{ apiKey: boolean; webhookToken: boolean }> {
      const byKey = await withKey(t.app, apiKey, 'GET', '/api/domains');
      const byToken = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/postfix',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        payload: 'Nov 29 10:00:00 mx postfix/qmgr[1]: not a delivery line\n',
      });
      return { apiKey: byKey.statusCode === 200, webhookToken: byToken.statusCode === 200 };
    },
  };
}
