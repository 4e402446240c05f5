import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '@contracts/alerts';
import {
  errorResponse,
  jsonResponse,
  makeUser,
  preloadSignedInFrame,
  renderApp,
  settled,
  signedOut,
  stubFetch,
} from '../../test/test-utils';
import { hoursAgo, makeAlert, makeBlacklistAlert, stubAlerts } from './test/fixtures';

beforeAll(async () => {
  await Promise.all([import('./alerts-page'), preloadSignedInFrame()]);
});

async function openPage(path = '/alerts') {
  const app = renderApp(path);
  await screen.findByTestId('alerts-page');
  return app;
}

function card(id: number) {
  const found = screen
    .getAllByTestId('alert-card')
    .find((element) => element.getAttribute('data-alert-id') === String(id));
  if (!found) throw new Error(`No card for alert ${id}`);
  return found;
}

const unreadDns = makeAlert({ id: 1, severity: 'critical', title: 'DMARC record removed', createdAt: hoursAgo(50) });
const unreadInfo = makeAlert({
  id: 2,
  severity: 'info',
  title: 'SPF record published',
  createdAt: new Date().toISOString(),
});
const readOne = makeAlert({ id: 3, severity: 'error', title: 'DKIM failing', isRead: true, resolvedAt: hoursAgo(2) });

describe('Alerts: tabs and lists', () => {
  it('counts unread alerts as Active and read ones as History, with the active count as a badge', async () => {
    stubAlerts([unreadDns, unreadInfo, readOne]);
    await openPage();
    await waitFor(() => expect(screen.getByTestId('active-count')).toHaveTextContent('2'));
    expect(screen.getByTestId('history-count')).toHaveTextContent('1');
    expect(screen.getByRole('tab', { name: /Active Alerts/ })).toHaveAttribute('aria-selected', 'true');
    const titles = screen
      .getAllByTestId('alert-card')
      .map((element) => within(element).getByRole('heading').textContent);
    expect(titles).toEqual(['DMARC record removed', 'SPF record published']);
    // Each severity has its own badge and icon (ADR 004); age in days, hours or 'Just now'.
    expect(within(card(1)).getByTestId('severity-badge')).toHaveTextContent('critical');
    expect(card(1).querySelector('[data-severity-icon="critical"]')).not.toBeNull();
    expect(within(card(1)).getByTestId('alert-age')).toHaveTextContent('2d ago');
    expect(within(card(2)).getByTestId('alert-age')).toHaveTextContent('Just now');
    expect(within(card(1)).getByTestId('alert-domain')).toHaveTextContent('example.com');
    expect(card(1)).not.toHaveClass('opacity-60');
  });

  it('shows read alerts in Alert History at reduced opacity, with when they were resolved', async () => {
    stubAlerts([unreadDns, readOne]);
    const user = userEvent.setup();
    await openPage();
    await user.click(await screen.findByRole('tab', { name: /Alert History/ }));
    const history = await screen.findByTestId('history-alerts');
    expect(within(history).getAllByTestId('alert-card')).toHaveLength(1);
    expect(card(3)).toHaveClass('opacity-60');
    expect(within(card(3)).getByTestId('alert-resolved')).toHaveTextContent('Resolved 2h ago');
    // Already read: no Mark Read, but it can still be acknowledged.
    expect(within(card(3)).queryByRole('button', { name: /Mark Read/ })).not.toBeInTheDocument();
    expect(within(card(3)).getByRole('button', { name: /Acknowledge/ })).toBeInTheDocument();
  });

  it('says so in words when a tab is empty', async () => {
    stubAlerts([]);
    const user = userEvent.setup();
    await openPage();
    expect(await screen.findByText('No active alerts')).toBeInTheDocument();
    expect(screen.getByTestId('active-count')).toHaveTextContent('0');
    await user.click(screen.getByRole('tab', { name: /Alert History/ }));
    expect(await screen.findByText('No alert history yet')).toBeInTheDocument();
  });

  it('Mark Read sends PATCH and moves the alert to History', async () => {
    let alerts: Alert[] = [unreadDns];
    const fetch = stubAlerts(() => alerts, {
      'PATCH /api/alerts/1/read': () => {
        alerts = [{ ...unreadDns, isRead: true }];
        return jsonResponse(alerts[0]);
      },
    });
    const user = userEvent.setup();
    const app = await openPage();
    await user.click(await screen.findByRole('button', { name: 'Mark Read: DMARC record removed' }));
    expect(await screen.findByText('No active alerts')).toBeInTheDocument();
    await settled(app);
    expect(screen.getByTestId('history-count')).toHaveTextContent('1');
    expect(
      fetch.mock.calls.filter(([url, init]) => String(url) === '/api/alerts/1/read' && init?.method === 'PATCH'),
    ).toHaveLength(1);
  });

  it('Mark Read that fails says "Failed to mark alert as read" and keeps the alert active', async () => {
    stubAlerts([unreadDns], { 'PATCH /api/alerts/1/read': () => new Response('', { status: 502 }) });
    const user = userEvent.setup();
    await openPage();
    await user.click(await screen.findByRole('button', { name: 'Mark Read: DMARC record removed' }));
    expect(await screen.findByText('Failed to mark alert as read')).toBeInTheDocument();
    expect(card(1)).toBeInTheDocument();
  });

  it('Acknowledge sends POST /api/alerts/:id/acknowledge and shows it acknowledged', async () => {
    let alerts: Alert[] = [unreadDns];
    const fetch = stubAlerts(() => alerts, {
      'POST /api/alerts/1/acknowledge': () => {
        alerts = [{ ...unreadDns, isRead: true, acknowledgedAt: new Date().toISOString() }];
        return jsonResponse(alerts[0]);
      },
    });
    const user = userEvent.setup();
    await openPage();
    await user.click(await screen.findByRole('button', { name: 'Acknowledge: DMARC record removed' }));
    expect(await screen.findByText('Alert acknowledged')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: /Alert History/ }));
    expect(await within(card(1)).findByTestId('alert-acknowledged')).toHaveTextContent('Acknowledged Just now');
    expect(within(card(1)).queryByRole('button', { name: /Acknowledge:/ })).not.toBeInTheDocument();
    expect(
      fetch.mock.calls.some(([url, init]) => String(url) === '/api/alerts/1/acknowledge' && init?.method === 'POST'),
    ).toBe(true);
  });

  it('deletes an alert only after confirmation', async () => {
    let alerts: Alert[] = [unreadDns, unreadInfo];
    const fetch = stubAlerts(() => alerts, {
      'DELETE /api/alerts/2': () => {
        alerts = [unreadDns];
        return new Response(null, { status: 204 });
      },
    });
    const user = userEvent.setup();
    const app = await openPage();
    await user.click(await screen.findByRole('button', { name: 'Delete alert SPF record published' }));
    const dialog = within(await screen.findByTestId('delete-alert-dialog'));
    expect(dialog.getByText(/Are you sure you want to delete the alert "SPF record published"/)).toBeInTheDocument();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await user.click(dialog.getByRole('button', { name: /Delete/ }));
    expect(await screen.findByText('Alert deleted')).toBeInTheDocument();
    await settled(app);
    expect(screen.getAllByTestId('alert-card')).toHaveLength(1);
    expect(screen.getByTestId('active-count')).toHaveTextContent('1');
  });

  it('signed out shows the login screen in place, never a redirect elsewhere', async () => {
    stubFetch(signedOut);
    const app = renderApp('/alerts');
    expect(await screen.findByRole('heading', { name: /sign in|log in|welcome back/i })).toBeInTheDocument();
    expect(app.router.state.location.pathname).toBe('/alerts');
  });

  it('a session lost while on the page toasts Unauthorized and shows the login screen', async () => {
    let signedIn = true;
    stubAlerts([unreadDns], {
      'GET /api/user': () =>
        signedIn ? jsonResponse(makeUser()) : errorResponse(401, 'unauthorized', 'Please sign in to continue'),
      'PATCH /api/alerts/1/read': () => {
        signedIn = false;
        return errorResponse(401, 'unauthorized', 'Please sign in to continue');
      },
    });
    const user = userEvent.setup();
    const app = await openPage();
    await user.click(await screen.findByRole('button', { name: 'Mark Read: DMARC record removed' }));
    expect(await screen.findByText('You are logged out. Logging in again...')).toBeInTheDocument();
    expect(screen.getByText('Unauthorized')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('alerts-page')).not.toBeInTheDocument());
    expect(screen.queryByText('Failed to mark alert as read')).not.toBeInTheDocument();
    expect(app.router.state.location.pathname).toBe('/alerts');
  });
});

describe('Alerts: the detail view', () => {
  it('opens ?alertId= for a blacklist alert with the check, its lists in a table and the history', async () => {
    const alert = makeBlacklistAlert();
    stubAlerts([alert]);
    await openPage('/alerts?alertId=7');
    const detail = await screen.findByTestId('alert-detail');
    expect(within(detail).getByRole('heading', { name: '93.184.216.34 is now listed on SpamCop' })).toBeInTheDocument();
    expect(within(detail).getByTestId('meta-ip')).toHaveTextContent('93.184.216.34');
    expect(within(detail).getByTestId('meta-total')).toHaveTextContent('38');
    expect(within(detail).getByTestId('meta-listed')).toHaveTextContent('1');
    expect(within(detail).getByTestId('meta-checked')).not.toHaveTextContent('N/A');
    const rows = within(detail).getAllByTestId('provider-row');
    expect(
      rows.map((row) => [row.getAttribute('data-listed'), within(row).getAllByRole('cell')[0]?.textContent]),
    ).toEqual([
      ['true', 'SpamCopbl.spamcop.net'],
      ['false', 'Barracudab.barracudacentral.org'],
    ]);
    expect(within(rows[0]!).getByText('Listed')).toBeInTheDocument();
    expect(within(rows[0]!).getByText(/Blocked - see https:\/\/www.spamcop.net/)).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Not listed')).toBeInTheDocument();
    const history = within(detail).getByTestId('alert-history');
    expect(within(history).getByText('Raised')).toBeInTheDocument();
    expect(within(history).getByText('Listed on SpamCop.')).toBeInTheDocument();
    // The detail replaces the tabs.
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
  });

  it("shows a DNS alert's metadata as readable pairs, not raw JSON", async () => {
    const alert = makeAlert({
      id: 4,
      metadata: {
        recordType: 'SPF',
        previousValue: 'v=spf1 -all',
        currentValue: 'v=spf1 include:_spf.google.com ~all',
        checkedAt: '2025-03-01T10:00:00.000Z',
        valid: true,
      },
      history: [
        { at: '2025-03-01T10:00:00.000Z', event: 'raised', message: 'SPF changed.' },
        { at: '2025-03-01T12:00:00.000Z', event: 'resolved', message: 'The record is valid again.' },
        { at: '2025-03-01T13:00:00.000Z', event: 'acknowledged', message: 'Acknowledged by ada.' },
      ],
      resolvedAt: '2025-03-01T12:00:00.000Z',
    });
    stubAlerts([alert]);
    await openPage('/alerts?alertId=4');
    const pairs = within(await screen.findByTestId('metadata-pairs'));
    expect(pairs.getByText('Record type')).toBeInTheDocument();
    expect(pairs.getByText('Previous value')).toBeInTheDocument();
    expect(pairs.getByText('v=spf1 include:_spf.google.com ~all')).toBeInTheDocument();
    expect(pairs.getByText('Checked at')).toBeInTheDocument();
    expect(pairs.getByText('Yes')).toBeInTheDocument();
    expect(screen.queryByText(/"recordType"/)).not.toBeInTheDocument();
    expect(screen.queryByTestId('provider-table')).not.toBeInTheDocument();
    const events = screen.getAllByTestId('history-entry').map((entry) => entry.getAttribute('data-event'));
    expect(events).toEqual(['raised', 'resolved', 'acknowledged']);
  });

  it('fetches an alert the list does not hold, and Back to Alerts returns to /alerts', async () => {
    const old = makeAlert({ id: 99, title: 'An old alert', isRead: true });
    stubAlerts([], { 'GET /api/alerts/99': () => jsonResponse(old) });
    const user = userEvent.setup();
    const app = await openPage('/alerts?alertId=99');
    expect(await screen.findByRole('heading', { name: 'An old alert' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to Alerts' }));
    await screen.findByRole('tablist');
    expect(app.router.state.location.pathname).toBe('/alerts');
    expect(app.router.state.location.search).toBe('');
  });

  it('says "Alert not found" with Back to Alerts for a 404 or an id that cannot be one', async () => {
    stubAlerts([], { 'GET /api/alerts/5': () => errorResponse(404, 'not_found', 'Alert not found') });
    const app = await openPage('/alerts?alertId=5');
    const notFound = await screen.findByTestId('alert-not-found');
    expect(within(notFound).getByText('Alert not found')).toBeInTheDocument();
    expect(within(notFound).getByRole('link', { name: 'Back to Alerts' })).toHaveAttribute('href', '/alerts');
    app.unmount();

    const fetch = stubAlerts([]);
    await openPage('/alerts?alertId=abc');
    expect(await screen.findByText('Alert not found')).toBeInTheDocument();
    expect(fetch.mock.calls.some(([url]) => String(url).startsWith('/api/alerts/abc'))).toBe(false);
  });

  it('View details on a card opens the detail view, and acknowledging there adds to its history', async () => {
    const alert = makeBlacklistAlert();
    let current: Alert = alert;
    stubAlerts(() => [current], {
      'GET /api/alerts/7': () => jsonResponse(current),
      'POST /api/alerts/7/acknowledge': () => {
        const at = new Date().toISOString();
        current = {
          ...alert,
          isRead: true,
          acknowledgedAt: at,
          history: [...alert.history, { at, event: 'acknowledged', message: 'Acknowledged.' }],
        };
        return jsonResponse(current);
      },
    });
    const user = userEvent.setup();
    const app = await openPage();
    await user.click(await screen.findByRole('link', { name: `View details of ${alert.title}` }));
    expect(app.router.state.location.search).toBe('?alertId=7');
    const detail = within(await screen.findByTestId('alert-detail'));
    await user.click(detail.getByRole('button', { name: /Acknowledge:/ }));
    await waitFor(() =>
      expect(screen.getAllByTestId('history-entry').map((entry) => entry.getAttribute('data-event'))).toEqual([
        'raised',
        'acknowledged',
      ]),
    );
    expect(detail.queryByRole('button', { name: /Acknowledge:/ })).not.toBeInTheDocument();
    expect(detail.queryByRole('button', { name: /Mark Read:/ })).not.toBeInTheDocument();
  });
  it('deleting from the detail view asks first, then returns to /alerts', async () => {
    let alerts: Alert[] = [unreadDns];
    stubAlerts(() => alerts, {
      'DELETE /api/alerts/1': () => {
        alerts = [];
        return new Response(null, { status: 204 });
      },
    });
    const user = userEvent.setup();
    const app = await openPage('/alerts?alertId=1');
    const detail = within(await screen.findByTestId('alert-detail'));
    await user.click(detail.getByRole('button', { name: 'Delete alert DMARC record removed' }));
    await user.click(within(await screen.findByTestId('delete-alert-dialog')).getByRole('button', { name: /Delete/ }));
    expect(await screen.findByText('No active alerts')).toBeInTheDocument();
    expect(app.router.state.location.search).toBe('');
    expect(screen.queryByText('Alert not found')).not.toBeInTheDocument();
  });
});

describe('Alerts: a drop alert (issue 19)', () => {
  const drop = makeAlert({
    id: 9,
    type: 'deliverability_drop',
    severity: 'critical',
    title: 'Inbox placement at Gmail fell for example.com',
    message:
      'Inbox placement at Gmail fell from 92% to 61% on 3 March; most likely cause: listed on Spamhaus ZEN since 2 March, 4 h before',
    metadata: {
      link: '/domains/4/timeline',
      dropId: 'placement:gmail:2025-03-03',
      domainId: 4,
      series: 'placement:gmail',
      before: 92,
      after: 61,
    },
  });

  it('offers View timeline on the card and in the detail view, to the link the alert carries', async () => {
    stubAlerts([drop, unreadDns]);
    const listPage = await openPage();
    await screen.findAllByTestId('alert-card');
    expect(within(card(9)).getByRole('link', { name: `View timeline: ${drop.title}` })).toHaveAttribute(
      'href',
      '/domains/4/timeline',
    );
    // Other alerts carry no timeline link.
    expect(within(card(1)).queryByRole('link', { name: /View timeline/ })).not.toBeInTheDocument();
    listPage.unmount();

    const detailPage = await openPage('/alerts?alertId=9');
    const detail = within(await screen.findByTestId('alert-detail'));
    expect(detail.getByRole('link', { name: `View timeline: ${drop.title}` })).toHaveAttribute(
      'href',
      '/domains/4/timeline',
    );
    detailPage.unmount();
  });

  it('makes no link of a metadata link that is not a timeline path', async () => {
    stubAlerts([makeAlert({ ...drop, metadata: { link: 'javascript:alert(1)//domains/4/timeline' } })]);
    await openPage();
    await screen.findAllByTestId('alert-card');
    expect(within(card(9)).queryByRole('link', { name: /View timeline/ })).not.toBeInTheDocument();
  });
});
