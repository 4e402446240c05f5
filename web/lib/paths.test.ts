import { describe, expect, it } from 'vitest';
import { SCREENS } from '@content/screens';
import { isAppPath, PATHS } from './paths';

describe('paths', () => {
  it('knows every path of the app, by the same names (content/screens.ts and web/lib/paths.ts agree)', () => {
    expect(Object.keys(SCREENS).sort()).toEqual(Object.keys(PATHS).sort());
    for (const [key, screen] of Object.entries(SCREENS))
      expect(screen.path, key).toBe(PATHS[key as keyof typeof PATHS]);
  });

  it('tells a screen of the app from any other path, the query and the fragment aside', () => {
    expect([PATHS.home, PATHS.dashboard, PATHS.domains, PATHS.inboxPlacement].every(isAppPath)).toBe(true);
    expect(isAppPath(`${PATHS.domains}?add=1#top`)).toBe(true);
    expect(isAppPath('/no-such-page')).toBe(false);
    expect(isAppPath('/no-such-page?x=1')).toBe(false);
  });
});
