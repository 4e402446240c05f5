import type { WebhookTokenStatus } from '@contracts/api-keys';
import type { Integration } from '@contracts/integrations';
import type { PostmasterStatus } from '@contracts/postmaster';
import { jsonResponse, makeUser, stubFetch } from '../../../test/test-utils';

export const NO_TOKEN: WebhookTokenStatus = { hasToken: false, tokenPreview: null, createdAt: null };

export function postmasterStatus(overrides: Partial<PostmasterStatus> = {}): PostmasterStatus {
  return { state: 'not_connected', domains: [], connectedAt: null, lastImportAt: null, lastError: null, ...overrides };
}

type Handler = Parameters<typeof stubFetch>[0][string];

/**
 * A signed-in user on the integrations page: the list answers `integrations` (and changes with
 * `list.value`), the MTA tab's calls answer no token and no events, plus `extra` handlers.
 */
export function stubIntegrations(integrations: Integration[] = [], extra: Record<string, Handler> = {}) {
  const list = { value: integrations };
  const mock = stubFetch({
    'GET /api/user': () => jsonResponse(makeUser()),
    'GET /api/alerts': () => jsonResponse([]),
    'GET /api/integrations': () => jsonResponse(list.value),
    'GET /api/webhook-tokens/status': () => jsonResponse(NO_TOKEN),
    'GET /api/delivery-events': () => jsonResponse([]),
    'GET /api/postmaster/status': () => jsonResponse(postmasterStatus()),
    'GET /api/esp-webhooks': () => jsonResponse([]),
    'GET /api/feedback-loops': () =>
      jsonResponse({ address: 'fbl@in.inboxpulse.test', complaints30d: 0, lastComplaintAt: null }),
    ...extra,
  });
  return { mock, list };
}

/** The calls made to `key` ('METHOD /path'), with their full URL and JSON body. */
export function callsTo(mock: ReturnType<typeof stubFetch>, key: string): { url: string; body: unknown }[] {
  return mock.mock.calls
    .filter(
      ([input, init]) =>
        `${(init?.method ?? 'GET').toUpperCase()} ${new URL(String(input), 'http://localhost').pathname}` === key,
    )
    .map(([input, init]) => ({ url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined }));
}
