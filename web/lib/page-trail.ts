import { createContext, useContext, useEffect } from 'react';

/** One step of the breadcrumb trail after the 'Dashboard' root link; the last is the current page. */
export interface TrailItem {
  label: string;
  to?: string;
}

type SetTrail = (trail: TrailItem[] | null) => void;

/**
 * The app shell's breadcrumb trail comes from the route (router.tsx); a page about one thing (a
 * domain's timeline) can only name it once its data arrived, so the shell lets the page replace it.
 */
export const PageTrailContext = createContext<SetTrail>(() => {});

/** Shows `trail` instead of the route's own while the page is mounted; null keeps the route's. */
export function usePageTrail(trail: TrailItem[] | null): void {
  const setTrail = useContext(PageTrailContext);
  // Compared by value: a page builds a new array on every render.
  const key = JSON.stringify(trail);
  useEffect(() => {
    setTrail(JSON.parse(key) as TrailItem[] | null);
    return () => setTrail(null);
  }, [setTrail, key]);
}
