import { useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { PATHS } from '../../lib/paths';
import { readCookieConsent, writeCookieConsent, type CookieConsent } from './consent-storage';

/**
 * Cookie consent banner (part 1, sections 2.2 and 4): shown until the visitor picks Accept or
 * Decline; the choice is stored locally and the banner never shows again.
 *
 * Placement: on phones a compact bar along the bottom edge, its content clear of the floating chat
 * button in the bottom-right corner; from sm up a card at the bottom left. Either way it covers no
 * more than the bottom of the screen (the hero's actions stay above it), and a spacer as tall as the
 * banner ends the page, so the last of the content can be scrolled above it.
 */
export function CookieBanner() {
  const [consent, setConsent] = useState<CookieConsent | null>(readCookieConsent);
  const bannerRef = useRef<HTMLElement>(null);
  const [covered, setCovered] = useState(0);

  useLayoutEffect(() => {
    const banner = bannerRef.current;
    if (!banner) return;
    // How much of the bottom of the viewport the banner covers: its height plus its offset from the edge.
    const measure = () => setCovered(Math.max(0, Math.ceil(window.innerHeight - banner.getBoundingClientRect().top)));
    measure();
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(banner);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [consent]);

  if (consent) return null;

  const choose = (value: CookieConsent) => {
    writeCookieConsent(value);
    setConsent(value);
  };

  return (
    <>
      <div aria-hidden="true" style={{ height: covered }} data-testid="cookie-banner-spacer" />
      <section
        ref={bannerRef}
        data-testid="cookie-banner"
        aria-labelledby="cookie-banner-title"
        className="fixed inset-x-0 bottom-0 z-40 border-t bg-card py-3 pr-20 pl-4 text-card-foreground shadow-[0_-4px_12px_rgb(0_0_0/0.08)] sm:inset-x-auto sm:bottom-4 sm:left-4 sm:max-w-sm sm:rounded-lg sm:border sm:p-4 sm:shadow-lg"
      >
        <h2 id="cookie-banner-title" className="text-sm font-semibold">
          We use cookies
        </h2>
        <p className="mt-1 text-xs text-muted-foreground sm:text-sm">
          Essential cookies keep you signed in. With your consent we also use optional cookies to understand how our
          site is used. Read our{' '}
          <Link to={PATHS.privacyPolicy} className="font-medium text-primary underline underline-offset-2">
            Privacy Policy
          </Link>
          .
        </p>
        <div className="mt-2 flex flex-wrap gap-2 sm:mt-3">
          <Button variant="outline" size="sm" className="text-xs sm:text-sm" onClick={() => choose('declined')}>
            Decline Optional
          </Button>
          <Button size="sm" className="text-xs sm:text-sm" onClick={() => choose('accepted')}>
            Accept All Cookies
          </Button>
        </div>
      </section>
    </>
  );
}
