import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { PATHS } from '../../lib/paths';
import { readCookieConsent, writeCookieConsent, type CookieConsent } from './consent-storage';

/**
 * Cookie consent banner (part 1, sections 2.2 and 4): shown until the visitor picks Accept or
 * Decline; the choice is stored locally and the banner never shows again.
 *
 * Placement: a card at the bottom left on wide screens; on phones it sits above the bottom edge so
 * the floating chat button in the bottom-right corner stays visible and usable.
 */
export function CookieBanner() {
  const [consent, setConsent] = useState<CookieConsent | null>(readCookieConsent);
  if (consent) return null;

  const choose = (value: CookieConsent) => {
    writeCookieConsent(value);
    setConsent(value);
  };

  return (
    <section
      data-testid="cookie-banner"
      aria-labelledby="cookie-banner-title"
      className="fixed inset-x-3 bottom-20 z-40 rounded-lg border bg-card p-4 text-card-foreground shadow-lg sm:inset-x-auto sm:bottom-4 sm:left-4 sm:max-w-sm"
    >
      <h2 id="cookie-banner-title" className="text-sm font-semibold">
        We use cookies
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Essential cookies keep you signed in. With your consent we also use optional cookies to understand how our site is used. Read our{' '}
        <Link to={PATHS.privacyPolicy} className="font-medium text-primary underline underline-offset-2">
          Privacy Policy
        </Link>
        .
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => choose('declined')}>
          Decline Optional
        </Button>
        <Button size="sm" onClick={() => choose('accepted')}>
          Accept All Cookies
        </Button>
      </div>
    </section>
  );
}
