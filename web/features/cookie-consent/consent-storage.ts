/** Part 1, section 3: one local key holding 'accepted' or 'declined'. */
export const COOKIE_CONSENT_KEY = 'inboxpulse-cookie-consent';

export type CookieConsent = 'accepted' | 'declined';

export function readCookieConsent(): CookieConsent | null {
  try {
    const value = window.localStorage.getItem(COOKIE_CONSENT_KEY);
    return value === 'accepted' || value === 'declined' ? value : null;
  } catch {
    // Storage can be blocked (privacy settings): behave as if nothing was chosen yet.
    return null;
  }
}

export function writeCookieConsent(value: CookieConsent): void {
  try {
    window.localStorage.setItem(COOKIE_CONSENT_KEY, value);
  } catch {
    // Blocked storage: the choice still holds for this page view.
  }
}
