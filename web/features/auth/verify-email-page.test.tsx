import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { bodyOf, errorResponse, jsonResponse, renderApp, signedOut, stubFetch } from '../../test/test-utils';

const verified = (message: string) => () => jsonResponse({ message, user: { email: 'ada@example.com' } });

describe('VerifyEmailPage', () => {
  it('shows a loading state while verifying', async () => {
    stubFetch({ ...signedOut, 'POST /api/verify-email': () => new Promise<Response>(() => {}) });
    renderApp('/verify-email?token=t1');
    expect(await screen.findByRole('heading', { name: 'Verifying your email' })).toBeInTheDocument();
  });

  it('shows success with Go to Dashboard and Return to Home', async () => {
    const fetchMock = stubFetch({ ...signedOut, 'POST /api/verify-email': verified('Email verified successfully') });
    renderApp('/verify-email?token=t1');
    expect(await screen.findByRole('heading', { name: 'Email Verified!' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(bodyOf(fetchMock, 'POST /api/verify-email')).toEqual({ token: 't1' });
    // Verified once, even though StrictMode-style remounts or re-renders could ask again.
    expect(fetchMock.mock.calls.filter(([url]) => String(url) === '/api/verify-email')).toHaveLength(1);
  });

  it('shows the already-verified state when the server says "Email already verified"', async () => {
    stubFetch({ ...signedOut, 'POST /api/verify-email': verified('Email already verified') });
    renderApp('/verify-email?token=t1');
    expect(await screen.findByRole('heading', { name: 'Email Already Verified' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toBeInTheDocument();
  });

  it('shows "Verification Failed" with the server message and a resend form', async () => {
    stubFetch({
      ...signedOut,
      'POST /api/verify-email': () =>
        errorResponse(400, 'invalid_token', 'This verification link is invalid or has expired'),
    });
    renderApp('/verify-email?token=bad');
    expect(await screen.findByRole('heading', { name: 'Verification Failed' })).toBeInTheDocument();
    expect(screen.getByText('This verification link is invalid or has expired')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend Verification Email' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
  });

  it('falls back to "Failed to verify email address" and "Verification Error" on a network failure', async () => {
    stubFetch({
      ...signedOut,
      'POST /api/verify-email': () => new Response('', { status: 400, statusText: 'Bad Request' }),
    });
    const first = renderApp('/verify-email?token=bad');
    expect(await screen.findByText('Failed to verify email address')).toBeInTheDocument();
    first.unmount();

    stubFetch({ ...signedOut, 'POST /api/verify-email': () => Promise.reject(new TypeError('Failed to fetch')) });
    renderApp('/verify-email?token=bad');
    expect(await screen.findByRole('heading', { name: 'Verification Error' })).toBeInTheDocument();
  });

  it('resend: blank email toasts "Email Required"; a sent request toasts the server message', async () => {
    const message = 'If an account exists with this email, a verification email has been sent.';
    const fetchMock = stubFetch({
      ...signedOut,
      'POST /api/verify-email': () =>
        errorResponse(400, 'invalid_token', 'This verification link is invalid or has expired'),
      'POST /api/resend-verification-public': () => jsonResponse({ message }),
    });
    renderApp('/verify-email?token=bad');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), '   ');
    await user.click(screen.getByRole('button', { name: 'Resend Verification Email' }));
    expect(await screen.findByText('Email Required')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Resend Verification Email' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST /api/resend-verification-public')).toEqual({ email: 'ada@example.com' });
  });

  it('resend: a server refusal toasts "Failed to Resend"', async () => {
    stubFetch({
      ...signedOut,
      'POST /api/verify-email': () =>
        errorResponse(400, 'invalid_token', 'This verification link is invalid or has expired'),
      'POST /api/resend-verification-public': () => errorResponse(429, 'rate_limited', 'Too many requests'),
    });
    renderApp('/verify-email?token=bad');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Resend Verification Email' }));
    expect(await screen.findByText('Failed to Resend')).toBeInTheDocument();
  });
});
