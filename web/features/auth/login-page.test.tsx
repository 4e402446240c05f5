import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  bodyOf,
  errorResponse,
  jsonResponse,
  makeUser,
  renderApp,
  settled,
  signedOut,
  stubFetch,
} from '../../test/test-utils';

async function fillAndSubmit(username: string, password: string) {
  const user = userEvent.setup();
  const form = await screen.findByTestId('login-form');
  await user.type(within(form).getByLabelText('Username'), username);
  await user.type(within(form).getByLabelText('Password'), password);
  await user.click(within(form).getByRole('button', { name: 'Sign In' }));
  return user;
}

describe('LoginPage', () => {
  it('shows the spec texts and links', async () => {
    stubFetch(signedOut);
    renderApp('/login');
    await screen.findByTestId('login-form');
    expect(screen.getByText(/25\+ global providers/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up here' })).toHaveAttribute('href', '/pricing');
  });

  it('requires username and password', async () => {
    const fetchMock = stubFetch(signedOut);
    renderApp('/login');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/login')).toBe(false);
  });

  it('toasts "Login Failed" with the server message on a rejected login', async () => {
    stubFetch({
      ...signedOut,
      'POST /api/login': () => errorResponse(401, 'unauthorized', 'Invalid username or password'),
    });
    renderApp('/login');
    await fillAndSubmit('ada', 'wrong-password');
    expect(await screen.findByText('Login Failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid username or password')).toBeInTheDocument();
    expect(screen.getByTestId('login-form')).toBeInTheDocument();
  });

  it('falls back to "Invalid username or password" when the server gives no message', async () => {
    stubFetch({ ...signedOut, 'POST /api/login': () => new Response('', { status: 401, statusText: 'Unauthorized' }) });
    renderApp('/login');
    await fillAndSubmit('ada', 'wrong-password');
    expect(await screen.findByText('Login Failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid username or password')).toBeInTheDocument();
  });

  it('shows the network error message when the request cannot be made', async () => {
    stubFetch({
      ...signedOut,
      'POST /api/login': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderApp('/login');
    await fillAndSubmit('ada', 'secret-password');
    expect(await screen.findByText('Failed to fetch')).toBeInTheDocument();
  });

  it('signs in, refetches the user and goes to /dashboard', async () => {
    let signedIn = false;
    const fetchMock = stubFetch({
      'GET /api/user': () =>
        signedIn ? jsonResponse(makeUser()) : errorResponse(401, 'unauthorized', 'Please sign in'),
      'GET /api/alerts': () => jsonResponse([]),
      'POST /api/login': () => {
        signedIn = true;
        return jsonResponse({ user: makeUser() });
      },
    });
    const app = renderApp('/login');
    const { router } = app;
    await fillAndSubmit('ada', 'secret-password');
    expect(await screen.findByTestId('dashboard-page')).toBeInTheDocument();
    await screen.findByTestId('sidebar');
    // Signed in and settled: no later redirect takes the dashboard away.
    await settled(app);
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(bodyOf(fetchMock, 'POST /api/login')).toEqual({ username: 'ada', password: 'secret-password' });
  });

  it('toggles the password visibility', async () => {
    stubFetch(signedOut);
    renderApp('/login');
    const user = userEvent.setup();
    const password = await screen.findByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });
});

describe('Forgot password dialog', () => {
  async function openDialog() {
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Forgot your password?' }));
    const dialog = await screen.findByRole('dialog');
    return { user, dialog: within(dialog) };
  }

  it('asks for an email when the field is blank', async () => {
    stubFetch(signedOut);
    renderApp('/login');
    const { user, dialog } = await openDialog();
    await user.click(dialog.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Email required')).toBeInTheDocument();
    expect(screen.getByText('Please enter your email address')).toBeInTheDocument();
  });

  it('sends the reset link, shows the server message and closes', async () => {
    const fetchMock = stubFetch({
      ...signedOut,
      'POST /api/forgot-password': () =>
        jsonResponse({ message: 'If an account exists with this email, a password reset link has been sent.' }),
    });
    renderApp('/login');
    const { user, dialog } = await openDialog();
    await user.type(dialog.getByLabelText('Email'), 'ada@example.com');
    await user.click(dialog.getByRole('button', { name: 'Send Reset Link' }));
    expect(
      await screen.findByText('If an account exists with this email, a password reset link has been sent.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/forgot-password')).toEqual({ email: 'ada@example.com' });
  });

  it('toasts "Reset failed" with the server message on failure', async () => {
    stubFetch({
      ...signedOut,
      'POST /api/forgot-password': () => errorResponse(429, 'rate_limited', 'Too many requests, try later'),
    });
    renderApp('/login');
    const { user, dialog } = await openDialog();
    await user.type(dialog.getByLabelText('Email'), 'ada@example.com');
    await user.click(dialog.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Reset failed')).toBeInTheDocument();
    expect(screen.getByText('Too many requests, try later')).toBeInTheDocument();
  });

  it('Cancel closes the dialog', async () => {
    stubFetch(signedOut);
    renderApp('/login');
    const { user, dialog } = await openDialog();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
