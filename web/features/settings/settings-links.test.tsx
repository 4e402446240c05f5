import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, preloadSignedInFrame, renderApp } from '../../test/test-utils';
import { stubSettings } from './test/fixtures';

beforeAll(async () => {
  await Promise.all([import('../../app/settings-page'), preloadSignedInFrame()]);
});

describe('Settings links', () => {
  it('the free plan’s upgrade prompt leads to the Professional plan on /pricing', async () => {
    stubSettings({ user: makeUser({ subscriptionPlan: 'free' }) });
    renderApp('/settings');
    const banner = within(await screen.findByTestId('api-access-plan-lock'));
    expect(banner.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/pricing?plan=professional');
  });

  it('the resources link to /api-docs, /integrations and /webhook-docs', async () => {
    stubSettings();
    renderApp('/settings');
    const resources = within(await screen.findByTestId('resource-links'));
    expect(resources.getByRole('link', { name: /API Documentation/ })).toHaveAttribute('href', '/api-docs');
    expect(resources.getByRole('link', { name: /^Integrations/ })).toHaveAttribute('href', '/integrations');
    expect(resources.getByRole('link', { name: /Webhook Documentation/ })).toHaveAttribute('href', '/webhook-docs');
    expect(resources.queryByTestId('resource-soon')).not.toBeInTheDocument();
  });
});
