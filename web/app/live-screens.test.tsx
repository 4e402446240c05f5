import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SCREENS } from '@content/screens';
import { jsonResponse, makeUser, renderApp, settled, signedOut, stubFetch } from '../test/test-utils';

const signedIn = {
  'GET /api/user': () => jsonResponse(makeUser()),
  'GET /api/alerts': () => jsonResponse([]),
  'GET /api/domains': () => jsonResponse([]),
  'GET /api/inbox-tests': () => jsonResponse([]),
  'GET /api/ip-addresses': () => jsonResponse([]),
  'GET /api/ip-addresses/suggestions': () => jsonResponse([]),
  'GET /api/reputation/domains': () => jsonResponse([]),
  'GET /api/ip-monitoring/status': () =>
    jsonResponse({
      totalProviders: 40,
      totalDomainProviders: 9,
      isRunning: false,
      lastRun: null,
      nextRun: null,
      lastError: null,
    }),
};

// content/screens.ts is what the navigation, the tour and the chat assistant believe: it must say
// what the pages really show. A screen marked live shows no "Not available yet", and the others do.
describe('the list of built screens agrees with the pages', () => {
  const screens = Object.entries(SCREENS).filter(([id]) => id !== 'home');
  it.each(screens)('%s', async (_id, entry) => {
    const views = entry.area === 'app' ? [signedIn] : [signedOut];
    // /integrations has a signed-in manager and a signed-out marketing page: both must agree.
    if (entry.path === '/integrations') views.push(signedOut);
    for (const stubs of views) {
      stubFetch(stubs);
      const app = renderApp(entry.path);
      if (entry.live) {
        await settled(app);
        expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
        expect(screen.queryByText('Not available yet')).not.toBeInTheDocument();
      } else {
        expect(await screen.findByText('Not available yet')).toBeInTheDocument();
      }
      app.unmount();
    }
  });
});
