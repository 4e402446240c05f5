import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useAuth } from '../lib/session';
import { PageSpinner } from './page-spinner';
import { useRouteTitle } from './route-title';

/**
 * Top of every route: nothing is drawn until we know whether someone is signed in (part 1, 2.1).
 * Sets the tab title from the route's handle (route-title.ts).
 */
export function RootLayout() {
  const { isLoading } = useAuth();
  useRouteTitle();
  if (isLoading) return <PageSpinner />;
  return (
    <>
      <ScrollRestoration />
      <Suspense fallback={<PageSpinner />}>
        <Outlet />
      </Suspense>
    </>
  );
}
