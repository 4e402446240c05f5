import { lazy, Suspense, type ReactNode } from 'react';
import { Outlet, useMatches } from 'react-router';
import { useAuth } from '../lib/session';
import { ContentSpinner } from './page-spinner';
import type { ShellMeta } from './shell/shell-meta';

// Both are lazy: a signed-out visitor of '/' needs neither the shell nor the login form.
const AppShell = lazy(() => import('./shell/app-shell'));
const LoginPage = lazy(() => import('../features/auth/login-page'));

/** The `handle` of a route under AuthGate: its shell header, and what to show when signed out. */
export interface GatedRouteHandle {
  shell: ShellMeta;
  /** Defaults to the login screen, shown in place (the URL does not change). */
  signedOut?: ReactNode;
}

export function gated(shell: ShellMeta, signedOut?: ReactNode): GatedRouteHandle {
  return { shell, signedOut };
}

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
