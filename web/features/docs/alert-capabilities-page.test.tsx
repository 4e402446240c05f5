import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALERT_TYPES } from '@contracts/alerts';
import { PLAN_LABELS, PRICING_PAGE_PLANS } from '@contracts/plans';
import { ALERT_FREQUENCIES, ALERT_RULE_WINDOWS, ALERT_SETTING_DEFAULTS } from '@contracts/alert-settings';
import { ALERT_FREQUENCY_DOCS, ALERT_RULE_WINDOW_DOCS, ALERT_THRESHOLD_DOCS } from './alert-capabilities-content';
import { expectAnchors, headerLinks, openDocsPage } from './test/docs-test-utils';

beforeAll(async () => {
  await import('./alert-capabilities-page');
});

const open = (options?: { signedIn?: boolean }) =>
  openDocsPage('/alert-capabilities', 'alert-capabilities-page', options);

describe('Alert capabilities (/alert-capabilities)', () => {
  it('counts the alert types from the server’s table, and shows only the plans the pricing page offers, with what each gets', async () => {
    await open();
    expect(screen.getByRole('heading', { level: 1, name: 'Alert Capabilities' })).toBeInTheDocument();
    expect(
      screen.getByText(
        `Alerting in ${ALERT_TYPES.length} alert types, in 3 groups (critical, reputation, performance), by e-mail, Slack, SMS and webhooks.`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/14 categories/)).not.toBeInTheDocument();
    const tiers = screen.getAllByTestId('plan-tier');
    expect(tiers.map((tier) => tier.querySelector('h3')?.textContent)).toEqual(
      PRICING_PAGE_PLANS.map((plan) => PLAN_LABELS[plan]),
    );
    expect(screen.queryByText(/Starter/)).not.toBeInTheDocument();
    const [free, professional, enterprise] = tiers;
    for (const tier of tiers) expect(tier).toHaveTextContent(`All ${ALERT_TYPES.length} alert types`);
    expect(free).toHaveTextContent('E-mail and the Alerts page (no Slack, SMS or webhooks)');
    expect(free).toHaveTextContent('Read alerts kept 30 days');
    expect(free).toHaveTextContent('No REST API access');
    expect(professional).toHaveTextContent('E-mail, the Alerts page, Slack, SMS (critical only) and webhooks');
    expect(professional).toHaveTextContent('Read alerts kept 365 days');
    expect(enterprise).toHaveTextContent('Alerts and rules through the REST API');
    expect(screen.getByTestId('documented-thresholds')).toHaveTextContent('Delivery rate: below 95%');
    expectAnchors(['categories', 'alert-types', 'channels', 'frequency', 'thresholds', 'api']);
  });

  it('lists every alert type the server has once, with its group, and which are raised today (ADR 025)', async () => {
    await open();
    const rows = screen.getAllByTestId('alert-type-row');
    expect(rows.map((row) => row.getAttribute('data-type'))).toEqual([...ALERT_TYPES]);
    expect(new Set(rows.map((row) => row.getAttribute('data-type'))).size).toBe(ALERT_TYPES.length);
    expect(rows.find((row) => row.getAttribute('data-type') === 'spam')).toHaveTextContent('Reputation');
    const notYet = rows
      .filter((row) => row.textContent?.includes('Not yet'))
      .map((row) => row.getAttribute('data-type'));
    expect(notYet).toEqual(['certificate_expiry', 'provider_blocking', 'reputation']);
    // MTA bounce events are built: the page says what is missing instead.
    expect(screen.queryByText(/not built yet/)).not.toBeInTheDocument();
    expect(rows.find((row) => row.getAttribute('data-type') === 'provider_blocking')).toHaveTextContent(
      'MTA and ESP bounce events are received',
    );
  });

  it('gives the channels, frequencies and thresholds of Alert Settings as the server has them', async () => {
    await open();
    expect(screen.getAllByTestId('channel-row').map((row) => row.firstChild?.textContent)).toEqual([
      'E-mail',
      'Slack',
      'SMS',
      'Webhooks',
    ]);
    expect(screen.getAllByTestId('channel-row')[2]).toHaveTextContent('Critical alerts only');
    expect(ALERT_FREQUENCY_DOCS.map((f) => f.frequency)).toEqual([...ALERT_FREQUENCIES]);
    expect(screen.getByTestId('frequencies')).toHaveTextContent('Weekly summary: a summary on Monday at 08:00.');
    expect(ALERT_RULE_WINDOW_DOCS).toEqual(ALERT_RULE_WINDOWS);
    for (const threshold of ALERT_THRESHOLD_DOCS) {
      expect(threshold.default).toBe(ALERT_SETTING_DEFAULTS[threshold.setting]);
      const row = screen
        .getAllByTestId('threshold-row')
        .find((r) => r.getAttribute('data-setting') === threshold.setting)!;
      expect(row).toHaveTextContent(`${threshold.default}${threshold.unit}`);
    }
  });

  it('links to /, /integrations, /alerts and /api-docs, and /register and /login signed out or /dashboard signed in', async () => {
    await open();
    expect(headerLinks()).toEqual({
      Home: '/',
      Integrations: '/integrations',
      Alerts: '/alerts',
      'API Docs': '/api-docs',
      Login: '/login',
      Register: '/register',
    });
  });

  it('shows Dashboard to a signed-in user', async () => {
    await open({ signedIn: true });
    await waitFor(() =>
      expect(headerLinks()).toEqual({
        Home: '/',
        Integrations: '/integrations',
        Alerts: '/alerts',
        'API Docs': '/api-docs',
        Dashboard: '/dashboard',
      }),
    );
  });
});
