import { describe, expect, it } from 'vitest';
import { SCREENS } from '@content/screens';
import { isLivePath } from './live-routes';
import { PATHS } from './paths';

describe('live routes', () => {
  it('knows every path of the app, by the same names (content/screens.ts and web/lib/paths.ts agree)', () => {
    expect(Object.keys(SCREENS).sort()).toEqual(Object.keys(PATHS).sort());
    for (const [key, screen] of Object.entries(SCREENS))
      expect(screen.path, key).toBe(PATHS[key as keyof typeof PATHS]);
  });

  it('lets links point at built screens only', () => {
    for (const screen of Object.values(SCREENS)) expect(isLivePath(screen.path), screen.path).toBe(screen.live);
    // The screens a signed-in user starts from are built.
    expect([PATHS.home, PATHS.dashboard, PATHS.domains, PATHS.inboxPlacement].every(isLivePath)).toBe(true);
    expect(isLivePath('/no-such-page')).toBe(false);
  });

  it('ignores the query and the fragment', () => {
    expect(isLivePath(`${PATHS.domains}?add=1#top`)).toBe(true);
    expect(isLivePath('/no-such-page?x=1')).toBe(false);
  });
});
