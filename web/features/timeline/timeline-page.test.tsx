import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { NO_CLEAR_CAUSE } from '@contracts/timeline';
import { bodyOf, errorResponse, jsonResponse, preloadSignedInFrame, renderApp, settled } from '../../test/test-utils';
import { makeDrop, makeEvent, makeSeries, makeTimeline, stubTimeline } from './test/fixtures';

beforeAll(async () => {
  await Promise.all([import('./timeline-page'), import('./components/timeline-chart'), preloadSignedInFrame()]);
});

const calls = (mock: ReturnType<typeof stubTimeline>, method: string, path: string) =>
  mock.mock.calls.filter(
    ([input, init]) =>
      (init?.method ?? 'GET') === method && new URL(String(input), 'http://localhost').pathname === path,
  );

const urls = (mock: ReturnType<typeof stubTimeline>) => mock.mock.calls.map(([input]) => String(input));

describe('Timeline page: states', () => {
  it('shows a spinner while the timeline loads, and the route’s trail', async () => {
    stubTimeline(() => new Promise<Response>(() => {}), { drops: [] });
    renderApp('/domains/1/timeline');
    expect(await screen.findByText('Loading the timeline')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Deliverability Timeline' })).toBeInTheDocument();
    const trail = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(trail.getByRole('link', { name: 'Domains' })).toHaveAttribute('href', '/domains');
    expect(trail.getByText('Timeline')).toHaveAttribute('aria-current', 'page');
  });

  it('with no data yet says what feeds each series instead of drawing an empty chart', async () => {
    const mock = stubTimeline(makeTimeline({ series: [], events: [] }), { drops: [] });
    const app = renderApp('/domains/1/timeline');
    await screen.findByTestId('timeline-no-series');
    await settled(app);
    expect(screen.queryByTestId('timeline-chart')).not.toBeInTheDocument();
    const hints = within(screen.getByTestId('timeline-missing-series'));
    expect(hints.getByText('Run an inbox placement test to see placement here.')).toBeInTheDocument();
    expect(hints.getByRole('link', { name: 'Run Inbox Test' })).toHaveAttribute('href', '/inbox-placement');
    expect(hints.getByText('Connect an ESP or your MTA to see bounce and complaint rates here.')).toBeInTheDocument();
    expect(hints.getByText("Connect Google Postmaster Tools to see Gmail's spam rate here.")).toBeInTheDocument();
    expect(hints.getByText(/to see the DMARC pass rate here/)).toBeInTheDocument();
    expect(screen.getByTestId('timeline-no-events')).toHaveTextContent(
      'Nothing happened to example.com in the last 30 days that InboxPulse knows of.',
    );
    expect(
      within(screen.getByTestId('why-panel')).getByText('No drop detected in the last 30 days.'),
    ).toBeInTheDocument();
    // The default period is asked for.
    expect(urls(mock)).toContain('/api/domains/1/timeline?days=30');
    expect(urls(mock)).toContain('/api/domains/1/diagnosis?days=30');
  });

  it('shows the series, the events newest first with kind, time, detail and link, and names the domain in the trail', async () => {
    stubTimeline(makeTimeline(), { drops: [] });
    renderApp('/domains/1/timeline');
    const legend = within(await screen.findByTestId('timeline-series'));
    expect(legend.getByText('Inbox placement at Gmail')).toBeInTheDocument();
    expect(legend.getByText(/61% on Mar 3, 2025 \(25 seeds\)/)).toBeInTheDocument();
    expect(await screen.findByTestId('timeline-chart')).toBeInTheDocument();
    // Placement has data: only the other sources are named as missing.
    const missing = screen.getAllByTestId('timeline-missing-series')[0];
    expect(within(missing).queryByText('Run an inbox placement test to see placement here.')).not.toBeInTheDocument();

    const events = within(screen.getByTestId('timeline-events')).getAllByTestId('timeline-event');
    expect(events.map((item) => item.getAttribute('data-kind'))).toEqual(['drop', 'listing', 'note']);
    const listing = within(events[1]);
    expect(listing.getByText('Listed on Spamhaus ZEN')).toBeInTheDocument();
    expect(listing.getByText('Blocklist listing')).toBeInTheDocument();
    expect(listing.getByText('192.0.2.10 answered 127.0.0.2')).toBeInTheDocument();
    expect(listing.getByRole('link', { name: 'Open Blacklist Monitor: Listed on Spamhaus ZEN' })).toHaveAttribute(
      'href',
      '/blacklist-monitoring',
    );
    expect(events[1].querySelector('time')).toHaveAttribute('dateTime', '2025-03-03T06:00:00.000Z');

    const trail = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(await trail.findByText('example.com')).toBeInTheDocument();
    expect(trail.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Dashboard',
      'Domains',
      'example.com',
      'Timeline',
    ]);
  });

  it('shows each drop with its summary and its causes ranked, with evidence, fix and link', async () => {
    stubTimeline(makeTimeline(), { drops: [makeDrop()] });
    renderApp('/domains/1/timeline');
    const panel = within(await screen.findByTestId('why-panel'));
    expect(
      panel.getByText(
        '1 drop detected in the last 30 days, newest first, with the events that most likely caused each.',
      ),
    ).toBeInTheDocument();
    expect(panel.getByRole('heading', { name: 'Inbox placement at Gmail: 92% → 61%' })).toBeInTheDocument();
    expect(panel.getByTestId('drop-summary')).toHaveTextContent(
      'Inbox placement at Gmail fell from 92% to 61% on 3 March; most likely cause: listed on Spamhaus ZEN since 3 March, 4 h before',
    );
    const causes = panel.getAllByTestId('drop-cause');
    expect(causes.map((cause) => cause.getAttribute('data-kind'))).toEqual(['listing', 'note']);
    const first = within(causes[0]);
    expect(first.getByText('1.')).toBeInTheDocument();
    expect(first.getByText('Strong match (0.90)')).toBeInTheDocument();
    expect(first.getByText(/4 h before/)).toBeInTheDocument();
    expect(
      first.getByText('192.0.2.10, which sends for example.com, was listed on Spamhaus ZEN at 06:00.'),
    ).toBeInTheDocument();
    expect(
      first.getByText('Find what sent the spam from 192.0.2.10, stop it, then request removal from Spamhaus.'),
    ).toBeInTheDocument();
    expect(first.getByRole('link', { name: 'Open Blacklist Monitor: Listed on Spamhaus ZEN' })).toHaveAttribute(
      'href',
      '/blacklist-monitoring',
    );
    expect(within(causes[1]).getByText('Weak match (0.30)')).toBeInTheDocument();
    expect(panel.queryByTestId('no-clear-cause')).not.toBeInTheDocument();
  });

  it('says plainly when nothing explains a drop', async () => {
    const summary = `Bounce rate rose from 1% to 9% on 3 March; ${NO_CLEAR_CAUSE}`;
    stubTimeline(makeTimeline({ series: [makeSeries({ key: 'bounce:rate', label: 'Bounce rate' })] }), {
      drops: [makeDrop({ series: 'bounce:rate', label: 'Bounce rate', before: 1, after: 9, summary, causes: [] })],
    });
    renderApp('/domains/1/timeline');
    const panel = within(await screen.findByTestId('why-panel'));
    expect(panel.getByTestId('drop-summary')).toHaveTextContent(summary);
    expect(panel.getByTestId('no-clear-cause')).toHaveTextContent(
      'Nothing InboxPulse holds for this domain happened shortly before this drop.',
    );
    expect(panel.queryAllByTestId('drop-cause')).toHaveLength(0);
  });

  it('asks for another period when one is chosen', async () => {
    const mock = stubTimeline(makeTimeline(), { drops: [] });
    const app = renderApp('/domains/1/timeline');
    await screen.findByTestId('timeline-series');
    await userEvent.setup().click(screen.getByRole('button', { name: '7 days' }));
    await waitFor(() => expect(urls(mock)).toContain('/api/domains/1/timeline?days=7'));
    expect(urls(mock)).toContain('/api/domains/1/diagnosis?days=7');
    await settled(app);
    expect(screen.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
    expect(app.router.state.location.search).toBe('?days=7');
  });

  it('shows "Domain not found" for another user’s (or a deleted) domain, and for an id that is none', async () => {
    stubTimeline(
      () => errorResponse(404, 'not_found', 'Domain not found'),
      () => errorResponse(404, 'not_found', 'Domain not found'),
    );
    const first = renderApp('/domains/1/timeline');
    expect(await screen.findByTestId('timeline-not-found')).toHaveTextContent('Domain not found');
    expect(screen.getByRole('link', { name: 'Back to Domains' })).toHaveAttribute('href', '/domains');
    first.unmount();

    const mock = stubTimeline(makeTimeline(), { drops: [] });
    const app = renderApp('/domains/abc/timeline');
    await screen.findByTestId('timeline-not-found');
    await settled(app);
    expect(urls(mock).some((url) => url.includes('/timeline') || url.includes('/diagnosis'))).toBe(false);
  });

  it('offers the failure and a retry when the timeline cannot be loaded', async () => {
    let fail = true;
    stubTimeline(
      () => (fail ? errorResponse(500, 'internal', 'Something went wrong on our side') : jsonResponse(makeTimeline())),
      { drops: [] },
    );
    renderApp('/domains/1/timeline');
    expect(await screen.findByText('Something went wrong on our side')).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('timeline-series')).toBeInTheDocument();
  });
});

describe('Timeline page: notes', () => {
  async function openWithNotes() {
    let timeline = makeTimeline();
    const mock = stubTimeline(
      () => jsonResponse(timeline),
      { drops: [] },
      {
        'POST /api/domains/1/notes': (init) => {
          const body = JSON.parse(String(init?.body)) as { text: string; at?: string };
          const note = { id: 8, at: body.at ?? new Date().toISOString(), text: body.text };
          timeline = {
            ...timeline,
            events: [
              ...timeline.events,
              makeEvent({
                id: 'note:8',
                kind: 'note',
                title: body.text,
                detail: null,
                severity: 'info',
                link: null,
                at: note.at,
              }),
            ],
          };
          return jsonResponse(note, 201);
        },
        'DELETE /api/domains/1/notes/7': () => {
          timeline = { ...timeline, events: timeline.events.filter((event) => event.id !== 'note:7') };
          return new Response(null, { status: 204 });
        },
      },
    );
    const app = renderApp('/domains/1/timeline');
    await screen.findByTestId('timeline-events');
    return { mock, app, user: userEvent.setup() };
  }

  it('refuses an empty note, one over 500 characters and a time in the future, and sends nothing', async () => {
    const { mock, app, user } = await openWithNotes();
    const form = within(screen.getByTestId('note-form'));
    await user.click(form.getByRole('button', { name: 'Add Note' }));
    expect(await form.findByText('Write the note first')).toBeInTheDocument();
    expect(form.getByLabelText('Note')).toHaveAttribute('aria-invalid', 'true');

    await user.type(form.getByLabelText('Note'), '   ');
    await user.click(form.getByRole('button', { name: 'Add Note' }));
    expect(await form.findByText('Write the note first')).toBeInTheDocument();

    await user.clear(form.getByLabelText('Note'));
    await user.click(form.getByLabelText('Note'));
    await user.paste('x'.repeat(501));
    expect(form.getByText('501/500')).toBeInTheDocument();
    await user.click(form.getByRole('button', { name: 'Add Note' }));
    expect(await form.findByText('A note can be at most 500 characters')).toBeInTheDocument();

    await user.clear(form.getByLabelText('Note'));
    await user.type(form.getByLabelText('Note'), 'Switched ESP');
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    const local = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await user.type(form.getByLabelText('When (optional)'), local);
    await user.click(form.getByRole('button', { name: 'Add Note' }));
    expect(await form.findByText('The date and time cannot be in the future')).toBeInTheDocument();

    await settled(app);
    expect(calls(mock, 'POST', '/api/domains/1/notes')).toHaveLength(0);
  });

  it('adds a note now, or at the time given, and the timeline shows it', async () => {
    const { mock, user } = await openWithNotes();
    const form = within(screen.getByTestId('note-form'));
    await user.type(form.getByLabelText('Note'), '  Switched ESP to Mailgun  ');
    await user.click(form.getByRole('button', { name: 'Add Note' }));
    const added = await within(screen.getByTestId('timeline-events')).findByText('Switched ESP to Mailgun');
    expect(added).toBeInTheDocument();
    expect(bodyOf(mock, 'POST /api/domains/1/notes')).toEqual({ text: 'Switched ESP to Mailgun' });
    expect(form.getByLabelText('Note')).toHaveValue('');

    await user.type(form.getByLabelText('Note'), 'New campaign to the spring list');
    await user.type(form.getByLabelText('When (optional)'), '2025-03-02T09:30');
    await user.click(form.getByRole('button', { name: 'Add Note' }));
    await waitFor(() => expect(calls(mock, 'POST', '/api/domains/1/notes')).toHaveLength(2));
    const body = JSON.parse(String(calls(mock, 'POST', '/api/domains/1/notes')[1][1]?.body));
    expect(body).toEqual({ text: 'New campaign to the spring list', at: new Date('2025-03-02T09:30').toISOString() });
  });

  it('shows the server’s refusal under the form', async () => {
    const { user } = await openWithNotes();
    stubTimeline(
      makeTimeline(),
      { drops: [] },
      { 'POST /api/domains/1/notes': () => errorResponse(400, 'validation_error', 'at must not be in the future') },
    );
    const form = within(screen.getByTestId('note-form'));
    await user.type(form.getByLabelText('Note'), 'Switched ESP');
    await user.click(form.getByRole('button', { name: 'Add Note' }));
    expect(await form.findByRole('alert')).toHaveTextContent('at must not be in the future');
  });

  it('deletes a note after asking, and it leaves the list', async () => {
    const { mock, user } = await openWithNotes();
    const list = within(screen.getByTestId('timeline-events'));
    await user.click(list.getByRole('button', { name: 'Delete note New campaign' }));
    const dialog = within(await screen.findByTestId('delete-note-dialog'));
    expect(dialog.getByText('Delete this note?')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Note deleted')).toBeInTheDocument();
    await waitFor(() => expect(list.queryByText('New campaign')).not.toBeInTheDocument());
    expect(calls(mock, 'DELETE', '/api/domains/1/notes/7')).toHaveLength(1);
    // Only notes can be deleted: the listing and the drop have no delete button.
    expect(list.queryAllByRole('button', { name: /^Delete note/ })).toHaveLength(0);
  });
});
