import { lazy, Suspense, type ReactNode } from 'react';
import { Outlet, useMatches } from 'react-router';
import { useAuth } from '../lib/session';
import { ContentSpinner } from '../components/ui/spinner';
import type { TitledHandle } from './route-title';
import type { ShellMeta } from './shell/shell-meta';

// Both are lazy: a signed-out visitor of '/' needs neither the shell nor the login form.
const AppShell = lazy(() => import('./shell/app-shell'));
const LoginPage = lazy(() => import('../features/auth/login-page'));

/** The `handle` of a route under AuthGate: its shell header, what to show when signed out, and the tab title of each. */
export interface GatedRouteHandle extends TitledHandle {
  shell: ShellMeta;
  /** Defaults to the login screen, shown in place (the URL does not change). */
  signedOut?: ReactNode;
}

/** Signed in, the page's shell title is its tab title; signed out, the title of what is shown instead (the login screen by default). */
export function gated(shell: ShellMeta, signedOut?: { element: ReactNode; title: string }): GatedRouteHandle {
  return {
    shell,
    signedOut: signedOut?.element,
    title: { signedIn: shell.title, signedOut: signedOut?.title ?? LOGIN_TITLE },
  };
}

/** The tab title of the login screen, shown in place of a signed-in page. */
export const LOGIN_TITLE = 'Login';

/**
 * Layout route of every page that has a signed-in form: signed in, the page inside the app shell;
 * signed out, the route's own public screen or the login screen (part 1, section 2.1).
 */
export function AuthGate() {
  const { user } = useAuth();
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as GatedRouteHandle | undefined;
  if (!user) return <>{handle?.signedOut ?? <LoginPage />}</>;
  return (
    <AppShell user={user} meta={handle?.shell ?? { title: 'InboxPulse' }}>
      <Suspense fallback={<ContentSpinner />}>
        <Outlet />
      </Suspense>
    </AppShell>
  );
}
