import { ACCOUNT_MESSAGES } from '@contracts/account';
import { AUTH_MESSAGES } from '@contracts/auth';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AccountSession } from '@contracts/account';
import {
  bodyOf,
  errorResponse,
  jsonResponse,
  makeUser,
  preloadSignedInFrame,
  renderApp,
  stubFetch,
} from '../../test/test-utils';

beforeAll(async () => {
  await Promise.all([import('../../app/settings-page'), preloadSignedInFrame()]);
});

function makeSession(overrides: Partial<AccountSession> = {}): AccountSession {
  return {
    id: '0123456789abcdef',
    createdAt: '2025-03-01T10:00:00.000Z',
    expiresAt: '2025-03-31T10:00:00.000Z',
    ip: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    device: 'Firefox on Linux',
    current: true,
    ...overrides,
  };
}

const laptop = makeSession();
const phone = makeSession({
  id: 'fedcba9876543210',
  ip: '198.51.100.2',
  device: 'Safari on iOS',
  userAgent: null,
  current: false,
});
const signedIn = {
  'GET /api/user': () => jsonResponse(makeUser()),
  'GET /api/account/storage': () =>
    jsonResponse({ dmarc: { reports: 0, records: 0, recordLimit: 1_000_000, bytes: 0 } }),
  // The rest of Settings (web/features/settings), answered so that its only alerts are this test's.
  'GET /api/api-keys/status': () =>
    jsonResponse({ hasApiKey: false, keyPreview: null, createdAt: null, lastUsedAt: null }),
  'GET /api/webhook-tokens/status': () => jsonResponse({ hasToken: false, tokenPreview: null, createdAt: null }),
};

async function rowOf(device: string) {
  const rows = await screen.findAllByTestId('session-row');
  const row = rows.find((r) => within(r).queryByText(device));
  if (!row) throw new Error(`No session row for ${device}`);
  return row;
}

describe('Settings: Security', () => {
  it('lists the sessions with device, IP and a This device badge on the current one', async () => {
    stubFetch({ ...signedIn, 'GET /api/account/sessions': () => jsonResponse({ sessions: [laptop, phone] }) });
    renderApp('/settings');
    expect(await screen.findByRole('heading', { name: 'Security' })).toBeInTheDocument();
    const current = await rowOf('Firefox on Linux');
    expect(within(current).getByText('This device')).toBeInTheDocument();
    expect(within(current).getByText(/203\.0\.113\.7/)).toBeInTheDocument();
    const other = await rowOf('Safari on iOS');
    expect(within(other).queryByText('This device')).not.toBeInTheDocument();
    expect(within(other).getByText(/198\.51\.100\.2 · Signed in/)).toBeInTheDocument();
  });

  it('shows the server’s words when the list cannot load', async () => {
    stubFetch({
      ...signedIn,
      'GET /api/account/sessions': () => errorResponse(500, 'internal', 'Something went wrong'),
    });
    renderApp('/settings');
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
  });

  it('says so when there are no sessions', async () => {
    stubFetch({ ...signedIn, 'GET /api/account/sessions': () => jsonResponse({ sessions: [] }) });
    renderApp('/settings');
    expect(await screen.findByText('No active sessions.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
  });

  it('revokes a session with DELETE and shows the list again without it', async () => {
    let sessions = [laptop, phone];
    const fetchMock = stubFetch({
      ...signedIn,
      'GET /api/account/sessions': () => jsonResponse({ sessions }),
      [`DELETE /api/account/sessions/${phone.id}`]: () => {
        sessions = [laptop];
        return new Response(null, { status: 204 });
      },
    });
    renderApp('/settings');
    const user = userEvent.setup();
    await user.click(within(await rowOf('Safari on iOS')).getByRole('button', { name: /Revoke/ }));
    await waitFor(() => expect(screen.queryByText('Safari on iOS')).not.toBeInTheDocument());
    expect(screen.getByText('Firefox on Linux')).toBeInTheDocument();
    const calls = fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);
    expect(calls).toContain(`DELETE /api/account/sessions/${phone.id}`);
    expect(calls.filter((c) => c === 'GET /api/account/sessions')).toHaveLength(2);
  });

  it('signs out everywhere else after confirming', async () => {
    let sessions = [laptop, phone];
    const fetchMock = stubFetch({
      ...signedIn,
      'GET /api/account/sessions': () => jsonResponse({ sessions }),
      'POST /api/account/sessions/sign-out-others': () => {
        sessions = [laptop];
        return jsonResponse({ revoked: 1 });
      },
    });
    renderApp('/settings');
    const user = userEvent.setup();
    await rowOf('Safari on iOS');
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('sign-out-others'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(screen.queryByText('Safari on iOS')).not.toBeInTheDocument());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it("sends the password change and shows the server's error", async () => {
    const fetchMock = stubFetch({
      ...signedIn,
      'GET /api/account/sessions': () => jsonResponse({ sessions: [laptop] }),
      'POST /api/account/password': () => errorResponse(400, 'validation_error', 'Your current password is incorrect'),
    });
    renderApp('/settings');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Current Password'), 'wrong password');
    await user.type(screen.getByLabelText('New Password'), 'a new secret 1');
    await user.type(screen.getByLabelText('Confirm New Password'), 'a new secret 2');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText("Passwords don't match")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/account/password')).toBe(false);

    await user.clear(screen.getByLabelText('Confirm New Password'));
    await user.type(screen.getByLabelText('Confirm New Password'), 'a new secret 1');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    const passwordForm = within(screen.getByRole('form', { name: 'Change password' }));
    expect(await passwordForm.findByRole('alert')).toHaveTextContent('Your current password is incorrect');
    expect(bodyOf(fetchMock, 'POST /api/account/password')).toEqual({
      currentPassword: 'wrong password',
      newPassword: 'a new secret 1',
      confirmPassword: 'a new secret 1',
      revokeApiAccess: false,
    });
  });

  it('revokes the API key and webhook token with the change when ticked, and says so', async () => {
    const fetchMock = stubFetch({
      ...signedIn,
      'GET /api/account/sessions': () => jsonResponse({ sessions: [laptop] }),
      'POST /api/account/password': () =>
        jsonResponse({ message: ACCOUNT_MESSAGES.passwordChanged, apiAccessRevoked: true }),
    });
    renderApp('/settings');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Current Password'), 'old password');
    await user.type(screen.getByLabelText('New Password'), 'a new secret 1');
    await user.type(screen.getByLabelText('Confirm New Password'), 'a new secret 1');
    await user.click(screen.getByLabelText('Also revoke my API key and webhook token'));
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(
      await screen.findByText(`${ACCOUNT_MESSAGES.passwordChanged} ${AUTH_MESSAGES.apiAccessRevoked}`),
    ).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/account/password')).toMatchObject({ revokeApiAccess: true });
  });
});

describe('Settings: Storage', () => {
  it('shows what the account keeps against its record limit', async () => {
    stubFetch({
      ...signedIn,
      'GET /api/account/sessions': () => jsonResponse({ sessions: [laptop] }),
      'GET /api/account/storage': () =>
        jsonResponse({ dmarc: { reports: 12, records: 34_567, recordLimit: 1_000_000, bytes: 3.5 * 1024 * 1024 } }),
    });
    renderApp('/settings');
    expect(await screen.findByTestId('storage-dmarc')).toHaveTextContent(
      '12 reports, 34,567 of 1,000,000 records (3.5 MB)',
    );
  });

  it('shows the server’s words when storage cannot be measured', async () => {
    stubFetch({
      ...signedIn,
      'GET /api/account/sessions': () => jsonResponse({ sessions: [laptop] }),
      'GET /api/account/storage': () => errorResponse(500, 'internal', 'Something went wrong'),
    });
    renderApp('/settings');
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
  });
});
