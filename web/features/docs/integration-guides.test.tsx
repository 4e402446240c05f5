import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MTA_GUIDES, mtaEndpointUrl, POSTFIX_MAIN_CF, postfixMonitorScript } from '@content/docs/mta-integration';
import { POSTFIX_ENDPOINTS } from '@content/docs/postfix';
import { EXAMPLE_LANGUAGES, smtp2goApiExample, smtp2goWebhookUrl } from '@content/docs/smtp2go';
import { COPY_CONFIRMATION_MS } from '../../components/copy-button';
import { codeBlock, codeOf, expectAnchors, headerLinks, openDocsPage } from './test/docs-test-utils';

beforeAll(async () => {
  await Promise.all([
    import('./postfix-integration-page'),
    import('./mta-integration-page'),
    import('./smtp2go-integration-page'),
  ]);
});

describe('Postfix guide (/integrations/postfix)', () => {
  const open = (options?: { signedIn?: boolean }) =>
    openDocsPage('/integrations/postfix', 'postfix-guide-page', options);

  it('has the quick-start steps, the main.cf block, the script, the endpoints, features and troubleshooting', async () => {
    await open();
    expect(screen.getByRole('heading', { level: 1, name: 'Postfix Integration Guide' })).toBeInTheDocument();
    expectAnchors(['quick-start', 'logging', 'monitor', 'endpoints', 'features', 'troubleshooting']);
    const steps = within(screen.getByTestId('quick-start-steps')).getAllByRole('heading');
    expect(steps.map((h) => h.textContent)).toEqual([
      '1. Configure logging',
      '2. Install monitor',
      '3. Start monitoring',
    ]);
    expect(codeOf('main.cf')).toBe(POSTFIX_MAIN_CF);
    expect(codeOf('inboxpulse-postfix-monitor')).toBe(postfixMonitorScript({ baseUrl: window.location.origin }));
    expect(codeOf('inboxpulse-postfix-monitor')).toContain(`${window.location.origin}/api/webhooks/postfix`);
    expect(screen.getAllByTestId('postfix-endpoint').map((e) => e.textContent)).toEqual(
      POSTFIX_ENDPOINTS.map((e) => expect.stringContaining(e.path)),
    );
    const trouble = screen.getByTestId('troubleshooting');
    for (const problem of [
      'No logs appearing',
      'API authentication errors (wrong key)',
      'High queue depths',
      'Missing events',
    ])
      expect(trouble).toHaveTextContent(problem);
  });

  it('copies a block and shows a check for 2 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await open();
    const button = within(codeBlock('main.cf')).getByRole('button', { name: 'Copy main.cf' });
    await user.click(button);
    expect(await navigator.clipboard.readText()).toBe(POSTFIX_MAIN_CF);
    expect(within(codeBlock('main.cf')).getByText('Copied')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(COPY_CONFIRMATION_MS));
    expect(within(codeBlock('main.cf')).queryByText('Copied')).not.toBeInTheDocument();
  });

  it('goes back to the previous page with Back', async () => {
    const user = userEvent.setup();
    const app = await openDocsPage('/mta-integration', 'mta-integration-page');
    await user.click(screen.getAllByRole('link', { name: 'Postfix integration guide' })[0]!);
    await screen.findByTestId('postfix-guide-page');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByTestId('mta-integration-page')).toBeInTheDocument();
    expect(app.router.state.location.pathname).toBe('/mta-integration');
  });

  it('has the shared documentation header: Dashboard when signed in', async () => {
    await open({ signedIn: true });
    expect(headerLinks()).toMatchObject({
      Home: '/',
      Integrations: '/integrations',
      'API Docs': '/api-docs',
      Dashboard: '/dashboard',
    });
    expect(headerLinks()).not.toHaveProperty('Login');
  });
});

describe('MTA integration guide (/mta-integration)', () => {
  it('links to /, /integrations, /register, /login and /api-docs, and covers the six MTAs', async () => {
    await openDocsPage('/mta-integration', 'mta-integration-page');
    expect(screen.getByRole('heading', { level: 1, name: 'MTA Integration Guide' })).toBeInTheDocument();
    expect(headerLinks()).toEqual({
      Home: '/',
      Integrations: '/integrations',
      'API Docs': '/api-docs',
      Login: '/login',
      Register: '/register',
    });
    expectAnchors([
      'overview',
      'authentication',
      'postfix',
      'powermta',
      'greenarrow',
      'halon',
      'kumo',
      'postal',
      'troubleshooting',
    ]);
    const origin = window.location.origin;
    for (const guide of MTA_GUIDES) {
      const section = document.getElementById(guide.id)!;
      expect(within(section).getByRole('heading', { level: 2, name: guide.name })).toBeInTheDocument();
      expect(within(section).getByTestId('mta-endpoint')).toHaveTextContent(
        `POST ${mtaEndpointUrl(guide, { baseUrl: origin })}`,
      );
      expect(section).toHaveTextContent(guide.authentication);
      for (const config of guide.config({ baseUrl: origin })) expect(codeOf(config.label)).toBe(config.code);
      expect(codeOf(`Check the ${guide.name} endpoint`)).toBe(guide.check({ baseUrl: origin }).code);
    }
    expect(codeOf('init.lua')).toContain('log_hooks:new {');
    expect(codeOf('/etc/pmta/config')).toContain('<acct-file /var/log/pmta/inboxpulse.csv>');
  });

  it('shows Dashboard instead of Register and Login to someone signed in', async () => {
    await openDocsPage('/mta-integration', 'mta-integration-page', { signedIn: true });
    expect(headerLinks()).toEqual({
      Home: '/',
      Integrations: '/integrations',
      'API Docs': '/api-docs',
      Dashboard: '/dashboard',
    });
  });
});

describe('SMTP2GO integration (/integrations/smtp2go)', () => {
  const open = (options?: { signedIn?: boolean }) => openDocsPage('/integrations/smtp2go', 'smtp2go-page', options);

  it('links Home, Integrations, Start Monitoring and Login for a visitor, Dashboard for someone signed in', async () => {
    await open();
    expect(headerLinks()).toEqual({
      Home: '/',
      Integrations: '/integrations',
      Login: '/login',
      'Start Monitoring': '/register',
    });
  });

  it('has the overview tiles, benefits, three setup steps, API examples, monitoring features, troubleshooting and support', async () => {
    const user = userEvent.setup();
    await open({ signedIn: true });
    expect(headerLinks()).toEqual({ Home: '/', Integrations: '/integrations', Dashboard: '/dashboard' });
    expectAnchors(['overview', 'benefits', 'setup', 'api-examples', 'monitoring', 'troubleshooting', 'support']);
    expect(
      within(screen.getByTestId('overview-tiles'))
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['SMTP relay', 'Analytics', 'Reputation']);
    const steps = screen.getByTestId('setup-steps');
    expect(
      within(steps)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['Step 1: Get an API key', 'Step 2: Install it in Integrations', 'Step 3: Optional: add the webhook']);
    expect(steps).toHaveTextContent('Read Stats and Read Activity');
    expect(codeOf('Webhook URL')).toBe(smtp2goWebhookUrl({ baseUrl: window.location.origin }));
    for (const language of EXAMPLE_LANGUAGES) {
      const label = { shell: 'Shell (curl)', node: 'Node.js', python: 'Python' }[language];
      await user.click(screen.getByRole('tab', { name: label }));
      expect(codeOf(label)).toBe(smtp2goApiExample(language));
    }
    expect(
      within(screen.getByTestId('monitoring-features'))
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual([
      'Delivery metrics',
      'Engagement tracking',
      'Reputation management',
      'Alert configuration',
      'Account monitoring',
      'Integration options',
    ]);
    const trouble = screen.getByTestId('troubleshooting');
    for (const problem of ['API key authentication failed', 'Data sync issues', 'Missing metrics'])
      expect(trouble).toHaveTextContent(problem);
    const support = within(screen.getByTestId('support-links')).getAllByRole('link');
    expect(support.map((link) => link.getAttribute('href'))).toEqual([
      'mailto:support@inboxpulse.com',
      '/api-docs',
      'https://developers.smtp2go.com/docs/getting-started',
      '/integrations?manage=smtp2go',
    ]);
  });
});
