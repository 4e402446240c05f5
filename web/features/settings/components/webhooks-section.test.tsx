import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Webhook } from '@contracts/webhooks';
import { jsonResponse, preloadSignedInFrame, renderApp } from '../../../test/test-utils';
import { callsOf, stubSettings } from '../test/fixtures';

beforeAll(async () => {
  await Promise.all([import('../../../app/settings-page'), preloadSignedInFrame()]);
});

const HOOK: Webhook = {
  id: 7,
  url: 'https://hooks.example.com/inboxpulse',
  events: ['email.delivered', 'alert.created'],
  description: 'CRM sync',
  secretPreview: 'whsec_ab12…',
  createdAt: '2026-11-01T10:00:00.000Z',
};

async function webhooksCard(list: Webhook[]) {
  const fetch = stubSettings({
    overrides: {
      'GET /api/webhooks': () => jsonResponse(list),
      'POST /api/webhooks/7/test': () => jsonResponse({ id: 1 }),
    },
  });
  renderApp('/settings');
  return { fetch, card: within(await screen.findByTestId('webhooks-card')) };
}

describe('Settings: webhooks', () => {
  it('lists each webhook with its events, and no pause while deliveries flow', async () => {
    const { card } = await webhooksCard([HOOK]);
    expect(await card.findByText(HOOK.url)).toBeInTheDocument();
    expect(card.getByText('CRM sync · email.delivered, alert.created')).toBeInTheDocument();
    expect(card.queryByRole('status')).not.toBeInTheDocument();
  });

  it('says plainly that deliveries are paused until when, why, and the last error, and resumes them with a test event', async () => {
    const pausedUntil = new Date(Date.now() + 5 * 60_000).toISOString();
    const { card, fetch } = await webhooksCard([{ ...HOOK, pausedUntil, pauseReason: 'No answer within 10 seconds' }]);
    const notice = await card.findByRole('status');
    expect(notice).toHaveTextContent(/^Deliveries are paused until .+ because the endpoint kept failing\./);
    expect(notice).toHaveTextContent('Last error: No answer within 10 seconds.');
    expect(notice).toHaveTextContent('Events wait meanwhile and use none of their attempts.');

    await userEvent.setup().click(within(notice).getByRole('button', { name: 'Resume deliveries' }));
    expect(await screen.findByText('Test event sent')).toBeInTheDocument();
    expect(callsOf(fetch)).toContain('POST /api/webhooks/7/test');
  });

  it('says the next delivery tries the endpoint once the pause has run out', async () => {
    const pausedUntil = new Date(Date.now() - 60_000).toISOString();
    const { card } = await webhooksCard([{ ...HOOK, pausedUntil, pauseReason: 'HTTP 503' }]);
    expect(await card.findByRole('status')).toHaveTextContent(
      'Deliveries are paused because the endpoint kept failing: the next delivery tries it again. Last error: HTTP 503.',
    );
  });

  it('says when there are none', async () => {
    const { card } = await webhooksCard([]);
    expect(await card.findByText(/^You have no webhooks\./)).toBeInTheDocument();
  });
});
