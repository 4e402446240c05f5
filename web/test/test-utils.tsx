import { act, render, waitFor } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
// RouterProvider from 'react-router', not 'react-router/dom': under Vitest the /dom entry loads a
// second copy of the router (CommonJS beside ESM) whose contexts the pages cannot see.
import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect, vi } from 'vitest';
import type { Domain } from '@contracts/domains';
import type { InboxTest } from '@contracts/inbox-tests';
import type { Integration } from '@contracts/integrations';
import type { ErrorBody, ErrorCode } from '@contracts/errors';
import type { User } from '@contracts/user';
import { AppProviders } from '../app/app-providers';
import { createAppQueryClient } from '../app/query-client';
import { routes } from '../app/router';

/**
 * Loads the lazy chunks every signed-in page waits for (the app shell, the toaster). A test file
 * calls it in beforeAll, with its own page's chunks, so its first wait is not spent compiling them.
 */
export function preloadSignedInFrame(): Promise<unknown> {
  return Promise.all([import('../app/shell/app-shell'), import('../components/ui/toaster')]);
}

/** Renders the real app (routes, providers, toaster) at a path, with a fresh query cache. */
export function renderApp(path: string) {
  const queryClient = createAppQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

/**
 * Waits until the app has nothing left to do: no query fetching, no mutation pending, no navigation
 * under way, and what they settled rendered. A test that asserts something did not happen (no
 * second call, no redirect, no toast) asserts it then, never after a fixed sleep.
 */
export async function settled({
  queryClient,
  router,
}: {
  queryClient: QueryClient;
  router: ReturnType<typeof createMemoryRouter>;
}): Promise<void> {
  await waitFor(() => {
    expect(queryClient.isFetching()).toBe(0);
    expect(queryClient.isMutating()).toBe(0);
    expect(router.state.navigation.state).toBe('idle');
  });
  // The query cache tells its observers in a task of its own (notifyManager's setTimeout 0): let
  // the tasks queued so far run, and React render what they set, before the test looks.
  await act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
}

/** jsdom has no layout; Recharts' ResponsiveContainer needs a ResizeObserver to exist. */
export function stubResizeObserver() {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The one error body every failing API call answers with; a code the server never sends does not compile. */
export function errorResponse(status: number, code: ErrorCode, message: string): Response {
  const body: ErrorBody = { code, message };
  return jsonResponse(body, status);
}

/** Answers one call; the URL is there for a handler whose answer depends on the query string. */
type Handler = (init: RequestInit | undefined, url: URL) => Response | Promise<Response>;

/**
 * Replaces global fetch with a table keyed by 'METHOD /path' (query string ignored). Calls nobody
 * expected answer 404 so a test fails visibly instead of hanging. Returns the mock to inspect calls.
 */
export function stubFetch(handlers: Record<string, Handler>) {
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${(init?.method ?? 'GET').toUpperCase()} ${url.pathname}`;
    const handler = handlers[key];
    if (!handler) return errorResponse(404, 'not_found', `No stub for ${key}`);
    return handler(init, url);
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

/** The JSON body a stubbed call was made with. */
export function bodyOf(mock: ReturnType<typeof stubFetch>, key: string): unknown {
  const call = mock.mock.calls.find(
    ([input, init]) => `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}` === key,
  );
  return call?.[1]?.body ? JSON.parse(String(call[1].body)) : undefined;
}

export const signedOut = { 'GET /api/user': () => errorResponse(401, 'unauthorized', 'Please sign in to continue') };

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    username: 'ada',
    email: 'ada@example.com',
    emailVerified: true,
    subscriptionPlan: 'free',
    hasCompletedTour: true,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function makeDomain(overrides: Partial<Domain> = {}): Domain {
  return {
    id: 1,
    domain: 'example.com',
    type: 'sending',
    status: 'healthy',
    isVerified: true,
    verificationRecord: { name: '_inboxpulse.example.com', value: 'inboxpulse-verification=abc123' },
    dkimSelectors: [],
    notes: null,
    spfRecord: 'v=spf1 include:_spf.google.com ~all',
    dkimRecord: null,
    dmarcRecord: 'v=DMARC1; p=reject',
    spfStatus: 'valid',
    dkimStatus: 'valid',
    dmarcStatus: 'valid',
    reputationScore: null,
    lastCheckedAt: '2025-03-01T10:00:00.000Z',
    createdAt: '2025-01-15T12:00:00.000Z',
    ...overrides,
  };
}

export function makeInboxTest(overrides: Partial<InboxTest> = {}): InboxTest {
  const id = overrides.id ?? 1;
  return {
    id,
    status: 'awaiting_email',
    testType: 'automatic',
    testEmailAddress: `test-${id}@in.inboxpulse.test`,
    subject: `Inbox Test ${id}`,
    subjectTag: `[TEST-${id}]`,
    seedAddresses: [],
    provider: null,
    totalSeeds: 0,
    inboxCount: 0,
    spamCount: 0,
    missingCount: 0,
    score: null,
    receivedAt: null,
    failureReason: null,
    createdAt: '2025-03-01T10:00:00.000Z',
    completedAt: null,
    ...overrides,
  };
}

/** A SendGrid integration just connected: no sync yet, so no figures. */
export function makeIntegration(overrides: Partial<Integration> = {}): Integration {
  return {
    id: 1,
    provider: 'sendgrid',
    name: 'SendGrid',
    type: 'esp',
    status: 'active',
    lastSync: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    emailsSent: 0,
    deliveryRate: null,
    dataPoints: 0,
    config: {},
    keyPreview: '…WXYZ',
    dailyStats: true,
    lastError: null,
    lastErrorAt: null,
    consecutiveFailures: 0,
    nextSyncAt: null,
    ...overrides,
  };
}
