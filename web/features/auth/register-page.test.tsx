import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { bodyOf, errorResponse, jsonResponse, makeUser, renderApp, signedOut, stubFetch } from '../../test/test-utils';

async function fill(
  values: Partial<Record<'Username' | 'Email' | 'Password' | 'Confirm Password' | 'Coupon Code (optional)', string>>,
) {
  const user = userEvent.setup();
  const form = within(await screen.findByTestId('register-form'));
  for (const [label, value] of Object.entries(values)) {
    if (value) await user.type(form.getByLabelText(label), value);
  }
  await user.click(form.getByRole('button', { name: 'Create Account' }));
}

describe('RegisterPage validation', () => {
  it('shows the spec messages for short username, bad email, short password and missing confirmation', async () => {
    const fetchMock = stubFetch(signedOut);
    renderApp('/register');
    await fill({ Username: 'ab', Email: 'not-an-email', Password: 'short' });
    expect(await screen.findByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/register')).toBe(false);
  });

  it('flags a confirmation that does not match on the confirm field', async () => {
    stubFetch(signedOut);
    renderApp('/register');
    await fill({
      Username: 'ada',
      Email: 'ada@example.com',
      Password: 'long-enough-1',
      'Confirm Password': 'long-enough-2',
    });
    const message = await screen.findByText("Passwords don't match");
    expect(screen.getByLabelText('Confirm Password')).toHaveAttribute('aria-describedby', message.id);
  });

  it('links to login, terms and privacy, and shows an example coupon code', async () => {
    stubFetch(signedOut);
    renderApp('/register');
    await screen.findByTestId('register-form');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms-of-service');
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
    expect(screen.getByLabelText('Coupon Code (optional)')).toHaveAttribute('placeholder', expect.stringMatching(/\S/));
  });
});

describe('RegisterPage submit', () => {
  const valid = {
    Username: 'ada',
    Email: 'Ada@Example.com',
    Password: 'long-enough-1',
    'Confirm Password': 'long-enough-1',
  };

  it('registers and goes to the confirmation page, which asks to check the inbox when a mail was sent', async () => {
    let registered = false;
    const fetchMock = stubFetch({
      'GET /api/user': () =>
        registered ? jsonResponse(makeUser()) : errorResponse(401, 'unauthorized', 'Please sign in'),
      'POST /api/register': () => {
        registered = true;
        return jsonResponse({ user: makeUser(), emailSent: true, message: 'Registered' }, 201);
      },
    });
    const { router } = renderApp('/register');
    await fill({ ...valid, 'Coupon Code (optional)': 'WELCOME' });
    expect(await screen.findByText('Please check your email to verify your account.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/email-confirmation');
    expect(new URLSearchParams(router.state.location.search).get('email')).toBe('ada@example.com');
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(bodyOf(fetchMock, 'POST /api/register')).toEqual({
      username: 'ada',
      email: 'ada@example.com',
      password: 'long-enough-1',
      confirmPassword: 'long-enough-1',
      couponCode: 'WELCOME',
    });
  });

  it('carries the plan chosen on /pricing on to a Continue button, and nothing it does not know', async () => {
    stubFetch({
      ...signedOut,
      'POST /api/register': () => jsonResponse({ user: makeUser(), emailSent: true, message: 'Registered' }, 201),
    });
    const { router } = renderApp('/register?plan=professional_annual');
    await fill(valid);
    const onward = await screen.findByRole('link', { name: 'Continue to the Professional plan' });
    expect(onward).toHaveAttribute('href', '/pricing?plan=professional_annual');
    expect(new URLSearchParams(router.state.location.search).get('plan')).toBe('professional_annual');
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('offers no Continue button for a plan it does not sell', async () => {
    stubFetch({
      ...signedOut,
      'POST /api/register': () => jsonResponse({ user: makeUser(), emailSent: true, message: 'Registered' }, 201),
    });
    const { router } = renderApp('/register?plan=https%3A%2F%2Fevil.example');
    await fill(valid);
    expect(await screen.findByRole('link', { name: 'Go to Dashboard' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Continue to/ })).toBeNull();
    expect(new URLSearchParams(router.state.location.search).has('plan')).toBe(false);
  });

  it('says the account is ready when no verification mail was sent', async () => {
    stubFetch({
      ...signedOut,
      'POST /api/register': () => jsonResponse({ user: makeUser(), emailSent: false, message: 'Registered' }, 201),
    });
    renderApp('/register');
    await fill(valid);
    expect(await screen.findByText('Your account has been verified and is ready to use.')).toBeInTheDocument();
  });

  it('toasts "Registration Failed" with the server message on a conflict', async () => {
    stubFetch({ ...signedOut, 'POST /api/register': () => errorResponse(409, 'conflict', 'Username already exists') });
    renderApp('/register');
    await fill(valid);
    expect(await screen.findByText('Registration Failed')).toBeInTheDocument();
    expect(screen.getByText('Username already exists')).toBeInTheDocument();
    expect(screen.getByTestId('register-form')).toBeInTheDocument();
  });

  it('toasts the generic message when the request fails unexpectedly', async () => {
    stubFetch({ ...signedOut, 'POST /api/register': () => Promise.reject(new TypeError('Failed to fetch')) });
    renderApp('/register');
    await fill(valid);
    expect(await screen.findByText('An unexpected error occurred. Please try again.')).toBeInTheDocument();
  });
});
