import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonResponse, preloadSignedInFrame, renderApp, settled } from '../../../test/test-utils';
import { stubIntegrations } from '../test/fixtures';

beforeAll(async () => {
  await Promise.all([import('../integrations-page'), preloadSignedInFrame()]);
});

describe('Integrations: complaint feedback loops', () => {
  it('gives the address to register with the loops, and says none has reported yet', async () => {
    stubIntegrations();
    const app = renderApp('/integrations?tab=mta');
    const card = await screen.findByTestId('feedback-loops');
    await settled(app);
    expect(await within(card).findByText('fbl@in.inboxpulse.test')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Copy the feedback loop address' })).toBeInTheDocument();
    expect(within(card).getByTestId('feedback-loops-received')).toHaveTextContent('No complaint received yet.');
  });

  it('counts the complaints of the last 30 days and says when the latest came', async () => {
    stubIntegrations([], {
      'GET /api/feedback-loops': () =>
        jsonResponse({
          address: 'fbl@in.inboxpulse.test',
          complaints30d: 1234,
          lastComplaintAt: new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString(),
        }),
    });
    const app = renderApp('/integrations?tab=mta');
    const card = await screen.findByTestId('feedback-loops');
    await settled(app);
    expect(await within(card).findByTestId('feedback-loops-received')).toHaveTextContent(
      /^1,234 complaints in the last 30 days; the latest 2d ago\.$/,
    );
  });
});
