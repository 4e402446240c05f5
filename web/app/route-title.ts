import { useEffect } from 'react';
import { useMatches, type UIMatch } from 'react-router';
import { useAuth } from '../lib/session';

/**
 * The tab title of a route, in its `handle` (router.tsx): one string, or one per session state for
 * the routes under AuthGate, whose signed-out form is another screen (the landing page, the login screen).
 */
export type RouteTitle = string | { signedIn: string; signedOut: string };

export interface TitledHandle {
  title?: RouteTitle;
}

export const PRODUCT_NAME = 'InboxPulse';

/** "Dashboard · InboxPulse": the page first, so tabs and history tell pages apart. */
export function documentTitle(title: string): string {
  return `${title} · ${PRODUCT_NAME}`;
}

/** The title of the deepest matched route that has one. */
export function titleOfMatches(matches: UIMatch[], signedIn: boolean): string | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const title = (matches[i].handle as TitledHandle | undefined)?.title;
    if (title) return typeof title === 'string' ? title : signedIn ? title.signedIn : title.signedOut;
  }
  return undefined;
}

/** Sets document.title; the one place that does (RootLayout for every route, RouteError for a failed one). */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? documentTitle(title) : PRODUCT_NAME;
  }, [title]);
}

/** The current route's title, from its handle and whether someone is signed in. */
export function useRouteTitle(): void {
  const matches = useMatches();
  const { user, isLoading } = useAuth();
  useDocumentTitle(isLoading ? undefined : titleOfMatches(matches, user !== null));
}
