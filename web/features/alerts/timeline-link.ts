import type { Alert } from '@contracts/alerts';

// A drop alert (issue 19, server/timeline) carries the domain's timeline in metadata.link. Only that
// exact shape of path is followed: metadata is free-form, and a link is not made from anything else.
const TIMELINE_PATH = /^\/domains\/\d{1,10}\/timeline$/;

/** The timeline the alert points at, or null when it points at none. */
export function timelineLinkOf(alert: Pick<Alert, 'metadata'>): string | null {
  const link = alert.metadata?.link;
  return typeof link === 'string' && TIMELINE_PATH.test(link) ? link : null;
}
