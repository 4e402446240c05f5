import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PATHS } from '../lib/paths';
import { AccountLinks } from './account-links';
import { Brand } from './brand';
import { Button } from './ui/button';
import { PublicFooter } from './public-footer';

/**
 * Header and footer of the public marketing, documentation and legal pages. The router adds the chat
 * assistant and the cookie banner around them (app/public-extras.tsx). A signed-in user sees their
 * name and the Dashboard link where a visitor sees Login.
 */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-4">
          <Brand />
          <nav aria-label="Site" className="flex flex-wrap items-center gap-1 text-sm sm:gap-2">
            <Button asChild variant="ghost" size="sm">
              <Link to={PATHS.pricing}>Pricing</Link>
            </Button>
            <Button asChild variant="ghost" size="sm">
              <Link to={PATHS.integrations}>Integrations</Link>
            </Button>
            <AccountLinks />
          </nav>
        </div>
      </header>
      <main className="flex-1">{children}</main>
      <PublicFooter />
    </div>
  );
}
