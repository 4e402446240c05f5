import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '@contracts/user';
import { errorResponse, jsonResponse, makeUser, renderApp, settled } from '../../test/test-utils';
import { USER_QUERY_KEY } from '../../lib/session';
import { stubDashboard } from '../../features/dashboard/test/fixtures';
import { TOUR_STEPS } from '../../features/tour/steps';

function signedIn(overrides: Partial<User> = {}, completeTour?: () => Response) {
  let user = makeUser({ hasCompletedTour: false, ...overrides });
  const fetchMock = stubDashboard({
    extra: {
      'GET /api/user': () => jsonResponse(user),
      'POST /api/user/complete-tour': () => {
        if (completeTour) return completeTour();
        user = { ...user, hasCompletedTour: true };
        return jsonResponse(user);
      },
    },
  });
  const completeCalls = () =>
    fetchMock.mock.calls.filter(([url, init]) => String(url) === '/api/user/complete-tour' && init?.method === 'POST')
      .length;
  return { fetchMock, completeCalls };
}

const tour = () => screen.getByTestId('onboarding-tour');

beforeAll(async () => {
  await Promise.all([import('../../features/dashboard/dashboard-page'), import('./app-shell')]);
});

beforeEach(() => {
  window.localStorage.clear();
});

describe('Onboarding tour', () => {
  it('opens by itself for a user who has not completed it, as a labelled dialog', async () => {
    signedIn();
    renderApp('/');
    const dialog = await screen.findByRole('dialog', { name: 'Welcome to InboxPulse!' });
    expect(dialog).toBe(tour());
    expect(dialog).toHaveAccessibleDescription(/quick tour/);
    expect(within(dialog).getByRole('progressbar', { name: 'Tour progress' })).toHaveAttribute('aria-valuenow', '1');
    expect(within(dialog).getByText('Step 1 of 7')).toBeInTheDocument();
  });

  it('does not open for a user who has completed it', async () => {
    signedIn({ hasCompletedTour: true });
    renderApp('/');
    await screen.findByTestId('dashboard-source-select');
    expect(screen.queryByTestId('onboarding-tour')).not.toBeInTheDocument();
  });

  it('walks through the seven steps with Next and Previous, visiting their pages, and completes once', async () => {
    const { completeCalls } = signedIn();
    const { router, queryClient } = renderApp('/settings');
    const user = userEvent.setup();
    await screen.findByTestId('onboarding-tour');
    const next = () => within(tour()).getByRole('button', { name: /^(Next|Get Started)$/ });
    const previous = () => within(tour()).getByRole('button', { name: 'Previous' });

    expect(previous()).toBeDisabled();
    expect(next()).toHaveTextContent('Next');

    // Each step with a route goes there; the others stay.
    const expectedPaths = ['/settings', '/', '/domains', '/inbox-placement', '/alerts', '/alerts', '/alerts'];
    for (let index = 0; index < TOUR_STEPS.length; index++) {
      if (index > 0) await user.click(next());
      const step = TOUR_STEPS[index];
      expect(tour()).toHaveAttribute('data-step', step.id);
      expect(within(tour()).getByRole('heading', { name: step.title })).toBeInTheDocument();
      expect(within(tour()).getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(index + 1));
      expect(within(tour()).getByTestId('tour-progress').style.width).toBe(`${((index + 1) / 7) * 100}%`);
      await waitFor(() => expect(router.state.location.pathname).toBe(expectedPaths[index]));
      expect(previous()).toHaveProperty('disabled', index === 0);
    }
    expect(next()).toHaveTextContent('Get Started');

    await user.click(previous());
    expect(tour()).toHaveAttribute('data-step', 'mobile-nav');
    expect(next()).toHaveTextContent('Next');
    await user.click(next());

    await user.click(next());
    expect(screen.queryByTestId('onboarding-tour')).not.toBeInTheDocument();
    await waitFor(() => expect(completeCalls()).toBe(1));
    await waitFor(() => expect(queryClient.getQueryData<User>(USER_QUERY_KEY)?.hasCompletedTour).toBe(true));
    // Walking the steps while the user query refetched never reopened it nor called again.
    await settled({ router, queryClient });
    expect(screen.queryByTestId('onboarding-tour')).not.toBeInTheDocument();
    expect(completeCalls()).toBe(1);
  });

  it('Previous goes back to the page of the earlier step', async () => {
    signedIn();
    const { router } = renderApp('/');
    const user = userEvent.setup();
    await screen.findByTestId('onboarding-tour');
    await user.click(within(tour()).getByRole('button', { name: 'Next' }));
    await user.click(within(tour()).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/domains'));
    // The router's state moves first; the tour acts on the location React has rendered (the
    // Domains page shows it), which may still be '/' for a moment (a transition, a lazy page).
    await screen.findByTestId('domains-page');
    await user.click(within(tour()).getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(tour()).toHaveAttribute('data-step', 'dashboard');
  });

  it('Skip Tour closes it and marks it complete', async () => {
    const { completeCalls } = signedIn();
    renderApp('/');
    const user = userEvent.setup();
    await screen.findByTestId('onboarding-tour');
    await user.click(within(tour()).getByRole('button', { name: 'Next' }));
    await user.click(within(tour()).getByRole('button', { name: 'Skip Tour' }));
    expect(screen.queryByTestId('onboarding-tour')).not.toBeInTheDocument();
    await waitFor(() => expect(completeCalls()).toBe(1));
  });

  it('the close icon and Escape close it and mark it complete', async () => {
    const first = signedIn();
    const view = renderApp('/');
    const user = userEvent.setup();
    await screen.findByTestId('onboarding-tour');
    await user.click(within(tour()).getByRole('button', { name: 'Close tour' }));
    expect(screen.queryByTestId('onboarding-tour')).not.toBeInTheDocument();
    await waitFor(() => expect(first.completeCalls()).toBe(1));
    view.unmount();

    window.localStorage.clear();
    const second = signedIn();
    renderApp('/');
    await screen.findByTestId('onboarding-tour');
    expect(tour()).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('onboarding-tour')).not.toBeInTheDocument();
    await waitFor(() => expect(second.completeCalls()).toBe(1));
  });

  it('window.restartOnboardingTour() opens it again at the first step', async () => {
    const { completeCalls } = signedIn({ hasCompletedTour: true });
    renderApp('/');
    await screen.findByTestId('dashboard-source-select');
    expect(screen.queryByTestId('onboarding-tour')).not.toBeInTheDocument();
    expect(window.restartOnboardingTour).toBeTypeOf('function');
    act(() => window.restartOnboardingTour!());
    expect(await screen.findByTestId('onboarding-tour')).toHaveAttribute('data-step', 'welcome');

    const user = userEvent.setup();
    await user.click(within(tour()).getByRole('button', { name: 'Next' }));
    await user.click(within(tour()).getByRole('button', { name: 'Skip Tour' }));
    act(() => window.restartOnboardingTour!());
    expect(await screen.findByTestId('onboarding-tour')).toHaveAttribute('data-step', 'welcome');
    // Already complete on the account: nothing to record again.
    expect(completeCalls()).toBe(0);
  });

  it('the help button in the page header restarts it', async () => {
    signedIn({ hasCompletedTour: true });
    renderApp('/domains');
    const user = userEvent.setup();
    await user.click(within(await screen.findByRole('banner')).getByRole('button', { name: 'Take the tour' }));
    expect(await screen.findByTestId('onboarding-tour')).toHaveAttribute('data-step', 'welcome');
  });

  it('stays closed on this device when recording completion failed', async () => {
    const { completeCalls } = signedIn({}, () => errorResponse(500, 'internal', 'Something went wrong'));
    const first = renderApp('/');
    const user = userEvent.setup();
    await screen.findByTestId('onboarding-tour');
    await user.click(within(tour()).getByRole('button', { name: 'Skip Tour' }));
    await waitFor(() => expect(completeCalls()).toBe(1));
    first.unmount();

    renderApp('/');
    await screen.findByTestId('dashboard-source-select');
    expect(screen.queryByTestId('onboarding-tour')).not.toBeInTheDocument();
  });
});
