import { Link } from 'react-router';
import { PATHS } from '../lib/paths';

/** The footer of the public pages: what the product is, and the legal pages. */
export function PublicFooter() {
  return (
    <footer className="border-t">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-6 text-sm text-muted-foreground">
        <p>InboxPulse: email deliverability monitoring</p>
        <nav aria-label="Legal" className="flex gap-4">
          <Link to={PATHS.privacyPolicy} className="hover:text-foreground">
            Privacy Policy
          </Link>
          <Link to={PATHS.termsOfService} className="hover:text-foreground">
            Terms of Service
          </Link>
        </nav>
      </div>
    </footer>
  );
}
