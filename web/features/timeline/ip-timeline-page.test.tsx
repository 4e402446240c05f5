import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IpTimeline } from '@contracts/timeline';
import {
  errorResponse,
  jsonResponse,
  makeUser,
  preloadSignedInFrame,
  renderApp,
  settled,
  stubFetch,
} from '../../test/test-utils';
import { makeEvent, makeSeries } from './test/fixtures';

beforeAll(async () => {
  await Promise.all([import('./ip-timeline-page'), import('./components/timeline-chart'), preloadSignedInFrame()]);
});

const ipTimeline = (overrides: Partial<IpTimeline> = {}): IpTimeline => ({
  ip: { id: 4, address: '192.0.2.10' },
  from: '2025-02-04T12:00:00.000Z',
  to: '2025-03-06T12:00:00.000Z',
  series: [
    makeSeries({
      key: 'bounce:rate',
      label: 'Bounce rate',
      points: [{ at: '2025-03-01T00:00:00.000Z', value: 1.5, sample: 2000 }],
    }),
  ],
  events: [makeEvent()],
  ...overrides,
});

function stub(answer: () => Response) {
  return stubFetch({
    'GET /api/user': () => jsonResponse(makeUser()),
    'GET /api/alerts': () => jsonResponse([]),
    'GET /api/ip-addresses/4/timeline': answer,
  });
}

describe('IP address timeline page', () => {
  it('shows the IP’s rates and its listings, names the address in the trail, and offers no notes', async () => {
    const mock = stub(() => jsonResponse(ipTimeline()));
    const app = renderApp('/reputation/ips/4/timeline');
    const legend = within(await screen.findByTestId('timeline-series'));
    expect(legend.getByText('Bounce rate')).toBeInTheDocument();
    await settled(app);
    const trail = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(trail.getByRole('link', { name: 'Reputation' })).toHaveAttribute('href', '/reputation');
    expect(trail.getByText('192.0.2.10')).toBeInTheDocument();
    const events = within(screen.getByTestId('timeline-events')).getAllByTestId('timeline-event');
    expect(events.map((item) => item.getAttribute('data-kind'))).toEqual(['listing']);
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(mock.mock.calls.map(([input]) => String(input))).toContain('/api/ip-addresses/4/timeline?days=30');
  });

  it('with no figures says what feeds an IP’s series, and nothing about placement or DMARC', async () => {
    stub(() => jsonResponse(ipTimeline({ series: [], events: [] })));
    renderApp('/reputation/ips/4/timeline');
    expect(await screen.findByTestId('timeline-no-series')).toHaveTextContent(
      'No figures for 192.0.2.10 in the last 30 days',
    );
    const hints = within(screen.getByTestId('timeline-missing-series'));
    expect(hints.getByText('Connect an ESP or your MTA to see bounce and complaint rates here.')).toBeInTheDocument();
    expect(hints.queryByText('Run an inbox placement test to see placement here.')).not.toBeInTheDocument();
    expect(screen.getByTestId('timeline-no-events')).toHaveTextContent(
      'Nothing happened to 192.0.2.10 in the last 30 days',
    );
  });

  it('says the address is not found for another user’s IP (404) and for an id that cannot be one', async () => {
    stub(() => errorResponse(404, 'not_found', 'IP address not found'));
    renderApp('/reputation/ips/4/timeline');
    expect(await screen.findByText('IP address not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Reputation' })).toHaveAttribute('href', '/reputation');
  });
});
