import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALERT_TYPES } from '@contracts/alerts';
import { ALERT_FREQUENCIES, ALERT_RULE_WINDOWS, ALERT_SETTING_DEFAULTS } from '@contracts/alert-settings';
import { ALERT_FREQUENCY_DOCS, ALERT_RULE_WINDOW_DOCS, ALERT_THRESHOLD_DOCS } from '@content/docs/alert-capabilities';
import { expectAnchors, headerLinks, openDocsPage } from './test/docs-test-utils';

beforeAll(async () => {
  await import('./alert-capabilities-page');
});

const open = (options?: { signedIn?: boolean }) => openDocsPage('/alert-capabilities', 'alert-capabilities-page', options);

describe('Alert capabilities (/alert-capabilities)', () => {
  it('keeps the spec’s alert categories text as written', async () => {
    await open();
    expect(screen.getByRole('heading', { level: 1, name: 'Alert Capabilities' })).toBeInTheDocument();
    expect(screen.getByText('Alerting in 14 categories (critical, reputation, performance) across several channels.')).toBeInTheDocument();
    const tiers = screen.getAllByTestId('plan-tier');
    expect(tiers.map((tier) => tier.querySelector('h3')?.textContent)).toEqual(['Starter', 'Professional', 'Enterprise']);
    expect(tiers[0]).toHaveTextContent('3 basic alert types');
    expect(tiers[1]).toHaveTextContent('8 advanced types');
    expect(tiers[2]).toHaveTextContent('All 11 types');
    expect(tiers[2]).toHaveTextContent('SMS (critical only)');
    expect(screen.getByTestId('documented-thresholds')).toHaveTextContent('Delivery rate: below 95%');
    expectAnchors(['categories', 'alert-types', 'channels', 'frequency', 'thresholds', 'api']);
  });

  it('lists the 12 alert types the server has and which are raised today (ADR 025)', async () => {
    await open();
    const rows = screen.getAllByTestId('alert-type-row');
    expect(rows.map((row) => row.getAttribute('data-type'))).toEqual([...ALERT_TYPES]);
    const notYet = rows.filter((row) => row.textContent?.includes('Not yet')).map((row) => row.getAttribute('data-type'));
    expect(notYet).toEqual(['certificate_expiry', 'provider_blocking', 'reputation']);
  });

  it('gives the channels, frequencies and thresholds of Alert Settings as the server has them', async () => {
    await open();
    expect(screen.getAllByTestId('channel-row').map((row) => row.firstChild?.textContent)).toEqual(['E-mail', 'Slack', 'SMS', 'Webhooks']);
    expect(screen.getAllByTestId('channel-row')[2]).toHaveTextContent('Critical alerts only');
    expect(ALERT_FREQUENCY_DOCS.map((f) => f.frequency)).toEqual([...ALERT_FREQUENCIES]);
    expect(screen.getByTestId('frequencies')).toHaveTextContent('Weekly summary: a summary on Monday at 08:00.');
    expect(ALERT_RULE_WINDOW_DOCS).toEqual(ALERT_RULE_WINDOWS);
    for (const threshold of ALERT_THRESHOLD_DOCS) {
      expect(threshold.default).toBe(ALERT_SETTING_DEFAULTS[threshold.setting]);
      const row = screen.getAllByTestId('threshold-row').find((r) => r.getAttribute('data-setting') === threshold.setting)!;
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
      expect(headerLinks()).toEqual({ Home: '/', Integrations: '/integrations', Alerts: '/alerts', 'API Docs': '/api-docs', Dashboard: '/dashboard' }),
    );
  });
});
