import { useEffect, type ReactNode } from 'react';
import { ArrowLeft } from 'lucide-react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Brand } from './brand';
import { Button } from './ui/button';
import { PATHS } from '../lib/paths';
import { useAuth } from '../lib/session';
import { PublicFooter } from './public-footer';

/** A link inside the text of a documentation page. */
export const TEXT_LINK = 'font-medium text-primary underline underline-offset-4 hover:no-underline';

export interface DocsLink {
  label: string;
  to: string;
}

/**
 * The header every documentation page shares (part 2, section 2): the logo links to /, an optional
 * title and back button, the Home link, the page's own links, then Dashboard for someone signed in
 * or Register and Login for a visitor (never both). `registerLabel` names the Register link where a
 * page words it otherwise ("Start Monitoring" on the sending-provider page).
 */
export function DocsHeader({
  title,
  back = false,
  links = [],
  registerLabel = 'Register',
}: {
  title?: string;
  back?: boolean;
  links?: DocsLink[];
  registerLabel?: string;
}) {
  const { isAuthenticated } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  // Back goes to the previous page; a page opened directly (the first entry: nothing of this app before it) goes to
  // Integrations.
  const goBack = () => void (location.key === 'default' ? navigate(PATHS.integrations) : navigate(-1));
  return (
    <header className="sticky top-0 z-20 border-b bg-background/95 backdrop-blur">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <div className="flex min-w-0 items-center gap-3">
          {back && (
            <Button variant="ghost" size="icon" className="size-8" aria-label="Back" onClick={goBack}>
              <ArrowLeft aria-hidden="true" />
            </Button>
          )}
          <Brand />
          {title && (
            <span className="hidden truncate border-l pl-3 text-sm font-medium text-muted-foreground sm:inline">
              {title}
            </span>
          )}
        </div>
        <nav aria-label="Documentation" className="flex flex-wrap items-center gap-1 text-sm">
          <Button asChild variant="ghost" size="sm">
            <Link to={PATHS.home}>Home</Link>
          </Button>
          {links.map((link) => (
            <Button key={link.to} asChild variant="ghost" size="sm">
              <Link to={link.to}>{link.label}</Link>
            </Button>
          ))}
          {isAuthenticated ? (
            <Button asChild size="sm">
              <Link to={PATHS.dashboard}>Dashboard</Link>
            </Button>
          ) : (
            <>
              <Button asChild variant="outline" size="sm">
                <Link to={PATHS.login}>Login</Link>
              </Button>
              <Button asChild size="sm">
                <Link to={PATHS.register}>{registerLabel}</Link>
              </Button>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}

export interface TocEntry {
  id: string;
  label: string;
}

/** A documentation page: the shared header, a table of contents beside the text on wide screens, a footer. */
export function DocsLayout({
  title,
  intro,
  links,
  toc,
  children,
  testId,
  back,
  registerLabel,
}: {
  title: string;
  intro: ReactNode;
  links?: DocsLink[];
  toc: TocEntry[];
  children: ReactNode;
  testId: string;
  back?: boolean;
  registerLabel?: string;
}) {
  // A link to /webhook-docs#security arrives before the lazy page has rendered its sections: the
  // browser found no #security to scroll to, so the page does it once it has.
  const { hash } = useLocation();
  useEffect(() => {
    if (hash.length > 1) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView?.();
  }, [hash]);
  return (
    <div className="flex min-h-screen flex-col">
      <DocsHeader title={title} links={links} back={back} registerLabel={registerLabel} />
      <div className="mx-auto w-full max-w-6xl flex-1 px-4 py-10" data-testid={testId}>
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <div className="mt-3 max-w-3xl text-muted-foreground">{intro}</div>
        <div className="mt-8 grid gap-10 lg:grid-cols-[12rem_1fr]">
          <nav aria-label="On this page" className="lg:sticky lg:top-20 lg:self-start">
            <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">On this page</p>
            <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm lg:flex-col">
              {toc.map((entry) => (
                <li key={entry.id}>
                  <a href={`#${entry.id}`} className="text-muted-foreground hover:text-foreground">
                    {entry.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <main className="min-w-0 space-y-14">{children}</main>
        </div>
      </div>
      <PublicFooter />
    </div>
  );
}

/** A section of a documentation page, reachable at #id. */
export function DocsSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-24 space-y-4">
      <h2 id={`${id}-heading`} className="text-2xl font-semibold tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The guides' Troubleshooting section: each problem with its fix. */
export function TroubleshootingSection({ items }: { items: readonly { problem: string; fix: ReactNode }[] }) {
  return (
    <DocsSection id="troubleshooting" title="Troubleshooting">
      <dl className="space-y-4" data-testid="troubleshooting">
        {items.map((item) => (
          <div key={item.problem}>
            <dt className="font-semibold">{item.problem}</dt>
            <dd className="mt-1 text-sm text-muted-foreground">{item.fix}</dd>
          </div>
        ))}
      </dl>
    </DocsSection>
  );
}
