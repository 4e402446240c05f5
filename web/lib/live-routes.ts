import { isLiveScreenPath } from '@content/screens';

/**
 * Whether a link may point at this path: only at a screen that is built (content/screens.ts). The
 * navigation, the onboarding tour and the chat assistant ask this before they send anyone somewhere;
 * a screen still being built keeps its route and its "Not available yet" page, but nothing links to it.
 */
export function isLivePath(to: string): boolean {
  return isLiveScreenPath(to);
}
