import { useEffect, useId, useState } from 'react';
import { Menu, X } from 'lucide-react';
import { Link } from 'react-router';
import { Brand } from '../../components/brand';
import { Button } from '../../components/ui/button';
import { PATHS } from '../../lib/paths';

const ANCHORS = [
  { href: '#features', label: 'Features' },
  { href: '#plans', label: 'Plans' },
  { href: '#faq', label: 'FAQ' },
];

const menuLinkClass = 'block rounded-md px-3 py-2.5 text-base font-medium text-foreground hover:bg-accent';

/**
 * Sticky top bar of the landing page: in-page anchors, Integrations, Login and Get Started. Below md
 * the anchors and Integrations move into a menu the Menu button opens under the bar (a disclosure:
 * aria-expanded, Escape or any of its links closes it); Login and Get Started stay in the bar.
 */
export function LandingHeader() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonId = useId();

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      document.getElementById(buttonId)?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open, buttonId]);

  const close = () => setOpen(false);

  return (
    <header className="sticky top-0 z-30 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:px-6">
        <Brand />
        <nav aria-label="Main" className="flex items-center gap-1 sm:gap-2">
          <ul className="mr-2 hidden items-center gap-1 md:flex">
            {ANCHORS.map((anchor) => (
              <li key={anchor.href}>
                <a
                  href={anchor.href}
                  className="rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:text-foreground"
                >
                  {anchor.label}
                </a>
              </li>
            ))}
          </ul>
          <Button asChild variant="ghost" size="sm" className="hidden md:inline-flex">
            <Link to={PATHS.integrations}>Integrations</Link>
          </Button>
          <Button asChild variant="ghost" size="sm">
            <Link to={PATHS.login}>Login</Link>
          </Button>
          <Button asChild size="sm">
            <Link to={PATHS.register}>Get Started</Link>
          </Button>
          <Button
            id={buttonId}
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label="Menu"
            aria-expanded={open}
            aria-controls={menuId}
            onClick={() => setOpen((value) => !value)}
          >
            {open ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
          </Button>
        </nav>
      </div>
      <nav
        id={menuId}
        aria-label="Menu"
        hidden={!open}
        className="border-t bg-background px-4 pt-2 pb-4 md:hidden"
        data-testid="site-menu"
      >
        <ul className="space-y-1">
          {ANCHORS.map((anchor) => (
            <li key={anchor.href}>
              <a href={anchor.href} className={menuLinkClass} onClick={close}>
                {anchor.label}
              </a>
            </li>
          ))}
          <li>
            <Link to={PATHS.integrations} className={menuLinkClass} onClick={close}>
              Integrations
            </Link>
          </li>
        </ul>
      </nav>
    </header>
  );
}
