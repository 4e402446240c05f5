import { AUTH_MESSAGES } from '@contracts/auth';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { bodyOf, errorResponse, jsonResponse, renderApp, signedOut, stubFetch } from '../../test/test-utils';

const invalidToken = () => errorResponse(400, 'invalid_token', 'This password reset link is invalid or has expired');

describe('ResetPasswordPage', () => {
  it('shows "Invalid reset link" without asking the server when there is no token', async () => {
    const fetchMock = stubFetch(signedOut);
    renderApp('/reset-password');
    expect(await screen.findByRole('heading', { name: 'Invalid reset link' })).toBeInTheDocument();
    expect(screen.getByText('This password reset link is invalid')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/validate-reset-token')).toBe(false);
  });

  it('shows the validating view while the token is checked', async () => {
    stubFetch({ ...signedOut, 'POST /api/validate-reset-token': () => new Promise<Response>(() => {}) });
    renderApp('/reset-password?token=abc');
    expect(await screen.findByRole('heading', { name: 'Validating reset link' })).toBeInTheDocument();
  });

  it('shows the invalid-or-expired view when the server rejects the token', async () => {
    stubFetch({ ...signedOut, 'POST /api/validate-reset-token': invalidToken });
    renderApp('/reset-password?token=expired');
    expect(await screen.findByText('This password reset link is invalid or has expired')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
  });

  it('shows the form for a valid token, checks the fields, resets and offers Continue to Login', async () => {
    const fetchMock = stubFetch({
      ...signedOut,
      'POST /api/validate-reset-token': () => jsonResponse({ valid: true }),
      'POST /api/reset-password': () =>
        jsonResponse({
          message: 'Your password has been reset. Please sign in with your new password.',
          apiAccessRevoked: true,
        }),
    });
    renderApp('/reset-password?token=good-token');
    const user = userEvent.setup();
    const password = await screen.findByLabelText('New Password');
    expect(bodyOf(fetchMock, 'POST /api/validate-reset-token')).toEqual({ token: 'good-token' });

    await user.type(password, 'short');
    await user.type(screen.getByLabelText('Confirm New Password'), 'other-long-password');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();

    await user.clear(password);
    await user.type(password, 'new-long-password');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText("Passwords don't match")).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Confirm New Password'));
    await user.type(screen.getByLabelText('Confirm New Password'), 'new-long-password');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByRole('link', { name: 'Continue to Login' })).toHaveAttribute('href', '/login');
    expect(
      screen.getByText('Your password has been reset. Please sign in with your new password.'),
    ).toBeInTheDocument();
    expect(screen.getByText(AUTH_MESSAGES.apiAccessRevoked)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/reset-password')).toEqual({
      token: 'good-token',
      password: 'new-long-password',
      keepApiAccess: false,
    });
  });

  it('keeps the API key and webhook token when asked, and then says nothing was revoked', async () => {
    const fetchMock = stubFetch({
      ...signedOut,
      'POST /api/validate-reset-token': () => jsonResponse({ valid: true }),
      'POST /api/reset-password': () => jsonResponse({ message: AUTH_MESSAGES.passwordReset, apiAccessRevoked: false }),
    });
    renderApp('/reset-password?token=good-token');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New Password'), 'new-long-password');
    await user.type(screen.getByLabelText('Confirm New Password'), 'new-long-password');
    await user.click(screen.getByLabelText(/^Keep my API key and webhook token working/));
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByRole('link', { name: 'Continue to Login' })).toBeInTheDocument();
    expect(screen.queryByText(AUTH_MESSAGES.apiAccessRevoked)).not.toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/reset-password')).toMatchObject({ keepApiAccess: true });
  });

  it('toasts "Unable to reset password" when the reset fails', async () => {
    stubFetch({
      ...signedOut,
      'POST /api/validate-reset-token': () => jsonResponse({ valid: true }),
      'POST /api/reset-password': invalidToken,
    });
    renderApp('/reset-password?token=good-token');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New Password'), 'new-long-password');
    await user.type(screen.getByLabelText('Confirm New Password'), 'new-long-password');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Unable to reset password')).toBeInTheDocument();
  });
});
