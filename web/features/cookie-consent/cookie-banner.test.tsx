import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COOKIE_CONSENT_KEY } from './consent-storage';
import { CookieBanner } from './cookie-banner';

function renderBanner() {
  return render(
    <MemoryRouter>
      <CookieBanner />
    </MemoryRouter>,
  );
}

describe('CookieBanner', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => localStorage.clear());

  it('shows when no consent is stored, with both buttons and a privacy policy link', () => {
    renderBanner();
    expect(screen.getByTestId('cookie-banner')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Decline Optional' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Accept All Cookies' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
  });

  it("Accept stores 'accepted' and hides the banner", async () => {
    renderBanner();
    await userEvent.click(screen.getByRole('button', { name: 'Accept All Cookies' }));
    expect(localStorage.getItem(COOKIE_CONSENT_KEY)).toBe('accepted');
    expect(screen.queryByTestId('cookie-banner')).not.toBeInTheDocument();
  });

  it("Decline stores 'declined' and hides the banner", async () => {
    renderBanner();
    await userEvent.click(screen.getByRole('button', { name: 'Decline Optional' }));
    expect(localStorage.getItem(COOKIE_CONSENT_KEY)).toBe('declined');
    expect(screen.queryByTestId('cookie-banner')).not.toBeInTheDocument();
  });

  it.each(['accepted', 'declined'])('is not shown when %s is already stored', (value) => {
    localStorage.setItem(COOKIE_CONSENT_KEY, value);
    renderBanner();
    expect(screen.queryByTestId('cookie-banner')).not.toBeInTheDocument();
  });

  it('never shows again after a choice, even on a later page', async () => {
    const first = renderBanner();
    await userEvent.click(screen.getByRole('button', { name: 'Accept All Cookies' }));
    first.unmount();
    renderBanner();
    expect(screen.queryByTestId('cookie-banner')).not.toBeInTheDocument();
  });

  it('ends the page with a spacer as tall as what it covers, so the end of the page can scroll above it, until a choice is made', async () => {
    renderBanner();
    expect(screen.getByTestId('cookie-banner-spacer')).toHaveAttribute('aria-hidden', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Decline Optional' }));
    expect(screen.queryByTestId('cookie-banner-spacer')).not.toBeInTheDocument();
  });
});
