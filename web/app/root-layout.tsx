import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useAuth } from '../lib/session';
import { PageSpinner } from './page-spinner';

/** Top of every route: nothing is drawn until we know whether someone is signed in (part 1, 2.1). */
export function RootLayout() {
  const { isLoading } = useAuth();
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
