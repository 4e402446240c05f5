import { Link } from 'react-router';
import { Brand } from '../../components/brand';
import { Button } from '../../components/ui/button';
import { PATHS } from '../../lib/paths';

const ANCHORS = [
  { href: '#features', label: 'Features' },
  { href: '#plans', label: 'Plans' },
  { href: '#faq', label: 'FAQ' },
];

/** Sticky top bar of the landing page: in-page anchors, Integrations, Login and Get Started. */
export function LandingHeader() {
  return (
    <header className="sticky top-0 z-30 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:px-6">
        <Brand />
        <nav aria-label="Main" className="flex items-center gap-1 sm:gap-2">
          <ul className="mr-2 hidden items-center gap-1 md:flex">
            {ANCHORS.map((anchor) => (
              <li key={anchor.href}>
                <a href={anchor.href} className="rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:text-foreground">
                  {anchor.label}
                </a>
              </li>
            ))}
          </ul>
          <Button asChild variant="ghost" size="sm" className="hidden sm:inline-flex">
            <Link to={PATHS.integrations}>Integrations</Link>
          </Button>
          <Button asChild variant="ghost" size="sm">
            <Link to={PATHS.login}>Login</Link>
          </Button>
          <Button asChild size="sm">
            <Link to={PATHS.register}>Get Started</Link>
          </Button>
        </nav>
      </div>
    </header>
  );
}
