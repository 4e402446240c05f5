import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { MTA_GUIDES } from '@content/docs/mta-integration';
import { ESP_INTEGRATIONS } from '@content/integrations';
import { CONNECT_OUTCOME_MESSAGES, GOOGLE_NOT_CONFIGURED } from '@contracts/postmaster';
import {
  errorResponse,
  jsonResponse,
  makeIntegration,
  preloadSignedInFrame,
  renderApp,
  settled,
} from '../../test/test-utils';
import { callsTo, postmasterStatus, stubIntegrations } from './test/fixtures';

beforeAll(async () => {
  await Promise.all([import('./integrations-page'), preloadSignedInFrame()]);
});

const KEY = 'SG.0123456789abcdefghijklmnopqrstuvwxyzWXYZ';

async function openPage(path = '/integrations') {
  const app = renderApp(path);
  const user = userEvent.setup();
  await screen.findByTestId('integrations-page');
  return { app, user };
}

const dialog = () => screen.getByRole('dialog');

describe('Integrations (signed in): the page', () => {
  it('shows the installed count, three tabs and the ESP plugin cards, most popular first', async () => {
    stubIntegrations();
    const { app } = await openPage();
    await settled(app);
    expect(screen.getByRole('heading', { level: 1, name: 'Integrations' })).toBeInTheDocument();
    expect(screen.getByTestId('installed-count')).toHaveTextContent('0 plugins installed');
    const tabs = within(screen.getByRole('tablist', { name: 'Integrations' })).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'Email Service Providers',
      'Mail Transfer Agents',
      'Analytics & Tools',
    ]);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    const esps = ESP_INTEGRATIONS.filter((p) => p.category === 'esp').sort((a, b) => b.popularity - a.popularity);
    const cards = screen.getAllByTestId(/^plugin-card-/);
    expect(cards.map((card) => card.getAttribute('data-testid'))).toEqual(esps.map((p) => `plugin-card-${p.id}`));
    expect(within(cards[0]!).getByRole('button', { name: 'Install SendGrid' })).toBeInTheDocument();
    expect(within(cards[0]!).getByRole('link', { name: /Documentation/ })).toHaveAttribute(
      'href',
      esps[0]!.documentation,
    );
    expect(screen.getByTestId('integrations-empty')).toBeInTheDocument();
  });

  it('moves between tabs with the arrow keys; Analytics & Tools holds Google Postmaster Tools', async () => {
    stubIntegrations();
    const { user } = await openPage();
    await screen.findByTestId('plugin-card-sendgrid');
    screen.getByRole('tab', { name: 'Email Service Providers' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Mail Transfer Agents' })).toHaveFocus();
    expect(await screen.findByTestId('mta-tab')).toBeInTheDocument();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Analytics & Tools' })).toHaveAttribute('aria-selected', 'true');
    const card = await screen.findByTestId('plugin-card-google-postmaster');
    expect(within(card).getByRole('button', { name: 'Connect Google Postmaster Tools' })).toBeInTheDocument();
    expect(screen.queryByTestId('plugin-card-sendgrid')).not.toBeInTheDocument();
  });

  it('counts installed plugins in the badge and marks their cards', async () => {
    stubIntegrations([
      makeIntegration({ lastSync: new Date(Date.now() - 2 * 3600_000).toISOString() }),
      makeIntegration({ id: 2, provider: 'mailgun', name: 'Mailgun', status: 'error', lastError: 'Forbidden (401)' }),
    ]);
    await openPage();
    expect(await screen.findByText('2 plugins installed')).toBeInTheDocument();
    const sendgrid = screen.getByTestId('plugin-card-sendgrid');
    expect(within(sendgrid).getByTestId('plugin-status')).toHaveTextContent('Active');
    expect(within(sendgrid).getByTestId('plugin-last-sync')).toHaveTextContent('Last sync: 2h ago');
    expect(within(sendgrid).getByRole('button', { name: 'Manage SendGrid' })).toBeInTheDocument();
    expect(within(screen.getByTestId('plugin-card-mailgun')).getByTestId('plugin-status')).toHaveAttribute(
      'data-tone',
      'bad',
    );
    expect(screen.queryByTestId('integrations-empty')).not.toBeInTheDocument();
  });

  it('says so, with a retry, when the list cannot be loaded', async () => {
    const { mock } = stubIntegrations([], {
      'GET /api/integrations': () => errorResponse(500, 'internal', 'Something went wrong on our side'),
    });
    const { user } = await openPage();
    expect(await screen.findByText('Something went wrong on our side')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(callsTo(mock, 'GET /api/integrations')).toHaveLength(2));
  });
});

describe('Integrations: installing a plugin', () => {
  it('guides through getting the key, then tests it and installs, showing the provider’s own words', async () => {
    const { mock, list } = stubIntegrations([], {
      'POST /api/integrations/test': () =>
        jsonResponse({
          success: false,
          error: 'The provided authorization grant is invalid, expired, or revoked (401)',
        }),
    });
    const { user } = await openPage();
    await user.click(await screen.findByRole('button', { name: 'Install SendGrid' }));

    // Step 1: where the key comes from, its permissions and format, the provider's documentation.
    expect(within(dialog()).getByRole('heading', { name: 'Install SendGrid' })).toBeInTheDocument();
    const credentials = within(dialog()).getByTestId('step-credentials');
    expect(credentials).toHaveTextContent('In SendGrid, open Settings, then API Keys, and click Create API Key.');
    expect(credentials).toHaveTextContent('Restricted Access with Stats set to Read Access is enough.');
    expect(within(credentials).getByRole('link', { name: /SendGrid documentation/ })).toHaveAttribute(
      'href',
      'https://www.twilio.com/docs/sendgrid/ui/account-and-settings/api-keys',
    );
    expect(within(dialog()).getByText('Step 1: Get credentials').closest('li')).toHaveAttribute('aria-current', 'step');
    await user.click(within(dialog()).getByRole('button', { name: 'Next' }));

    // Step 2: the fields; Test Connection and Install wait for the key (spaces are not a key), and say so.
    const key = within(dialog()).getByLabelText('API key');
    expect(key).toHaveAttribute('type', 'password');
    const waitingForKey = () => {
      expect(within(dialog()).getByRole('button', { name: 'Test Connection' })).toBeDisabled();
      expect(within(dialog()).getByRole('button', { name: 'Install' })).toBeDisabled();
      expect(within(dialog()).getByText('Fill in API key to test the connection and install.')).toBeInTheDocument();
    };
    waitingForKey();
    await user.type(key, '   ');
    waitingForKey();
    await user.clear(key);
    expect(callsTo(mock, 'POST /api/integrations/test')).toHaveLength(0);

    await user.type(key, KEY);
    expect(within(dialog()).getByRole('button', { name: 'Test Connection' })).toBeEnabled();
    expect(within(dialog()).getByRole('button', { name: 'Install' })).toBeEnabled();
    expect(within(dialog()).queryByText(/^Fill in /)).not.toBeInTheDocument();
    await user.click(within(dialog()).getByRole('button', { name: 'Show API key' }));
    expect(key).toHaveAttribute('type', 'text');
    await user.click(within(dialog()).getByRole('button', { name: 'Hide API key' }));
    expect(key).toHaveAttribute('type', 'password');

    await user.click(within(dialog()).getByRole('button', { name: 'Test Connection' }));
    expect(
      await within(dialog()).findByText(
        'Connection failed: The provided authorization grant is invalid, expired, or revoked (401)',
      ),
    ).toBeInTheDocument();
    expect(callsTo(mock, 'POST /api/integrations/test')[0]!.body).toEqual({
      pluginId: 'sendgrid',
      config: { apiKey: KEY },
    });

    const installed = makeIntegration();
    const second = stubIntegrations(list.value, {
      'POST /api/integrations/test': () => jsonResponse({ success: true, error: null }),
      'POST /api/integrations': () => {
        second.list.value = [installed];
        return jsonResponse(installed, 201);
      },
    });
    await user.click(within(dialog()).getByRole('button', { name: 'Test Connection' }));
    expect(await within(dialog()).findByText('Connection test successful! Ready to install.')).toBeInTheDocument();

    await user.click(within(dialog()).getByRole('button', { name: 'Install' }));
    expect(await screen.findByText('SendGrid installed')).toBeInTheDocument();
    // The dialog now manages the installed plugin, and the badge counts it.
    expect(await within(dialog()).findByTestId('manage-integration')).toBeInTheDocument();
    expect(within(dialog()).getByRole('heading', { name: 'Manage SendGrid' })).toBeInTheDocument();
    expect(await screen.findByText('1 plugin installed')).toBeInTheDocument();
  });

  it('shows "Installation Failed" with the server’s words when the provider refuses the key', async () => {
    const { mock } = stubIntegrations([], {
      'POST /api/integrations': () =>
        errorResponse(
          400,
          'validation_error',
          'The connection test failed: Invalid API key (E_ApiResponseCodes.API_KEY_INVALID) (401)',
        ),
    });
    const { user } = await openPage('/integrations?manage=smtp2go');
    await user.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: 'Next' }));
    await user.type(within(dialog()).getByLabelText('API key'), 'api-0123456789ABCDEF');
    await user.type(within(dialog()).getByLabelText('SMTP username (optional)'), 'mailer@example.com');
    await user.click(within(dialog()).getByRole('button', { name: 'Install' }));
    expect(await screen.findByText('Installation Failed')).toBeInTheDocument();
    expect(
      screen.getByText('The connection test failed: Invalid API key (E_ApiResponseCodes.API_KEY_INVALID) (401)'),
    ).toBeInTheDocument();
    expect(
      within(dialog()).getByText('Connection failed: Invalid API key (E_ApiResponseCodes.API_KEY_INVALID) (401)'),
    ).toBeInTheDocument();
    expect(callsTo(mock, 'POST /api/integrations')[0]!.body).toEqual({
      pluginId: 'smtp2go',
      config: { apiKey: 'api-0123456789ABCDEF', username: 'mailer@example.com' },
      provider: 'smtp2go',
    });
  });

  it('refuses a value the server would refuse, in the same words, before sending it', async () => {
    const { mock } = stubIntegrations();
    const { user } = await openPage('/integrations?manage=activecampaign');
    await user.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: 'Next' }));
    expect(
      within(dialog()).getByText('Fill in API key and API URL to test the connection and install.'),
    ).toBeInTheDocument();
    await user.type(within(dialog()).getByLabelText('API key'), 'short');
    expect(within(dialog()).getByText('Fill in API URL to test the connection and install.')).toBeInTheDocument();
    await user.type(within(dialog()).getByLabelText('API URL'), 'http://youraccount.api-us1.com:8080');
    await user.click(within(dialog()).getByRole('button', { name: 'Install' }));
    expect(within(dialog()).getByText('API key must be at least 8 characters, without spaces')).toBeInTheDocument();
    expect(
      within(dialog()).getByText('API URL must be a host name such as youraccount.api-us1.com, or its https:// URL'),
    ).toBeInTheDocument();
    expect(within(dialog()).getByLabelText('API key')).toHaveAttribute('aria-invalid', 'true');
    expect(callsTo(mock, 'POST /api/integrations')).toHaveLength(0);
  });
});

describe('Integrations: managing an installed plugin (?manage=)', () => {
  const failing = makeIntegration({
    lastSync: '2026-11-26T08:00:00.000Z',
    lastError: 'The provided authorization grant is invalid, expired, or revoked (401)',
    lastErrorAt: '2026-11-27T08:00:00.000Z',
    consecutiveFailures: 2,
    emailsSent: 12000,
    deliveryRate: 98.75,
    dataPoints: 30,
  });

  it('opens the plugin’s dialog from the address with its status, last sync and last error', async () => {
    stubIntegrations([failing]);
    await openPage('/integrations?manage=sendgrid');
    const manage = await screen.findByTestId('manage-integration');
    expect(within(manage).getByTestId('integration-status')).toHaveTextContent('Last sync failed');
    expect(within(manage).getByTestId('last-sync')).toHaveTextContent('Nov 26, 2026');
    expect(within(manage).getByTestId('last-error')).toHaveTextContent(
      'The provided authorization grant is invalid, expired, or revoked (401)',
    );
    expect(manage).toHaveTextContent('Failed syncs in a row2');
    expect(manage).toHaveTextContent('…WXYZ');
    expect(manage).toHaveTextContent('12,000');
    expect(manage).toHaveTextContent('98.8%');
  });

  it('queues a sync now and says what the server said', async () => {
    const { mock } = stubIntegrations([failing], {
      'POST /api/integrations/1/sync': () =>
        jsonResponse(
          { message: 'A SendGrid sync is queued; its figures appear here when it ends.', integration: failing },
          202,
        ),
    });
    const { user } = await openPage('/integrations?manage=sendgrid');
    await user.click(await screen.findByRole('button', { name: 'Sync now' }));
    expect(await screen.findByText('Sync queued')).toBeInTheDocument();
    expect(screen.getByText('A SendGrid sync is queued; its figures appear here when it ends.')).toBeInTheDocument();
    expect(callsTo(mock, 'POST /api/integrations/1/sync')).toHaveLength(1);
  });

  it('edits settings: an empty key keeps the stored one, and the provider’s refusal is shown', async () => {
    const mailchimp = makeIntegration({
      id: 7,
      provider: 'mailchimp',
      name: 'Mailchimp',
      config: { serverPrefix: 'us21' },
      keyPreview: '…us21',
    });
    const { mock } = stubIntegrations([mailchimp], {
      'PATCH /api/integrations/7': () =>
        errorResponse(400, 'validation_error', 'The connection test failed: API Key Invalid (401)'),
    });
    const { user } = await openPage('/integrations?manage=mailchimp');
    await user.click(await screen.findByRole('button', { name: 'Edit settings' }));
    const form = within(screen.getByTestId('edit-settings'));
    expect(form.getByLabelText('Server prefix (optional)')).toHaveValue('us21');
    expect(form.getByText(/Leave it empty to keep the stored one \(…us21\)/)).toBeInTheDocument();
    expect(form.getByRole('button', { name: 'Test Connection' })).toBeDisabled();
    await user.clear(form.getByLabelText('Server prefix (optional)'));
    await user.type(form.getByLabelText('Server prefix (optional)'), 'us6');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings not saved')).toBeInTheDocument();
    expect(form.getByText('Connection failed: API Key Invalid (401)')).toBeInTheDocument();
    expect(callsTo(mock, 'PATCH /api/integrations/7')[0]!.body).toEqual({ config: { serverPrefix: 'us6' } });
  });

  it('pauses syncing', async () => {
    const paused = { ...failing, status: 'inactive' as const };
    const { mock, list } = stubIntegrations([failing], {
      'PATCH /api/integrations/1': () => {
        list.value = [paused];
        return jsonResponse(paused);
      },
    });
    const { user } = await openPage('/integrations?manage=sendgrid');
    await user.click(await screen.findByRole('button', { name: 'Pause syncing' }));
    expect(await screen.findByText('SendGrid paused')).toBeInTheDocument();
    expect(callsTo(mock, 'PATCH /api/integrations/1')[0]!.body).toEqual({ enabled: false });
    expect(await screen.findByRole('button', { name: 'Resume syncing' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sync now' })).toBeDisabled();
  });

  it('uninstalls after a confirmation, keeping the figures when asked', async () => {
    const { mock, list } = stubIntegrations([failing], {
      'DELETE /api/integrations/1': () => {
        list.value = [];
        return new Response(null, { status: 204 });
      },
    });
    const { user, app } = await openPage('/integrations?manage=sendgrid');
    await user.click(await screen.findByRole('button', { name: 'Uninstall' }));
    const confirm = within(await screen.findByTestId('uninstall-dialog'));
    expect(confirm.getByRole('heading', { name: 'Uninstall SendGrid?' })).toBeInTheDocument();
    await user.click(confirm.getByLabelText('Keep the daily figures it synced'));
    await user.click(confirm.getByRole('button', { name: 'Uninstall' }));
    expect(await screen.findByText('SendGrid uninstalled')).toBeInTheDocument();
    expect(callsTo(mock, 'DELETE /api/integrations/1')[0]!.url).toBe('/api/integrations/1?keepMetrics=true');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(app.router.state.location.search).toBe('');
    expect(await screen.findByText('0 plugins installed')).toBeInTheDocument();
  });

  it('understands the dashboard’s spelling of Google Postmaster Tools and names an unknown plugin', async () => {
    stubIntegrations();
    const first = await openPage('/integrations?manage=gmailpostmaster');
    expect(
      within(await screen.findByRole('dialog')).getByRole('heading', { name: 'Connect Google Postmaster Tools' }),
    ).toBeInTheDocument();
    first.app.unmount();
    stubIntegrations();
    await openPage('/integrations?manage=nosuchesp');
    expect(
      await screen.findByText('There is no integration called “nosuchesp”: choose one below.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('Integrations: Google Postmaster Tools', () => {
  it('says plainly when this server has no Google sign-in', async () => {
    stubIntegrations([], {
      'GET /api/postmaster/status': () => jsonResponse(postmasterStatus({ state: 'not_configured' })),
    });
    const { user } = await openPage('/integrations?manage=google-postmaster');
    const body = within(await screen.findByRole('dialog'));
    expect(await body.findByTestId('step-credentials')).toHaveTextContent('Verify your domain in Postmaster Tools');
    await user.click(body.getByRole('button', { name: 'Next' }));
    expect(body.getByTestId('google-not-configured')).toHaveTextContent(GOOGLE_NOT_CONFIGURED);
    expect(body.queryByRole('button', { name: /Connect Google Postmaster Tools/ })).not.toBeInTheDocument();
  });

  it('starts Google’s sign-in with the connect route', async () => {
    const { mock } = stubIntegrations([], {
      'POST /api/integrations/google-postmaster/connect': () =>
        errorResponse(429, 'rate_limited', 'Too many Google sign-ins started. Try again in 10 minutes.'),
    });
    const { user } = await openPage('/integrations?manage=google-postmaster');
    const body = within(await screen.findByRole('dialog'));
    await user.click(await body.findByRole('button', { name: 'Next' }));
    await user.click(body.getByRole('button', { name: 'Connect Google Postmaster Tools' }));
    expect(await screen.findByText('Too many Google sign-ins started. Try again in 10 minutes.')).toBeInTheDocument();
    expect(callsTo(mock, 'POST /api/integrations/google-postmaster/connect')).toHaveLength(1);
  });

  it('toasts how Google’s sign-in went and takes the marker out of the address', async () => {
    stubIntegrations();
    const { app } = await openPage('/integrations?manage=google-postmaster&google=access_denied');
    expect(await screen.findByText(CONNECT_OUTCOME_MESSAGES.access_denied.title)).toBeInTheDocument();
    expect(screen.getByText(CONNECT_OUTCOME_MESSAGES.access_denied.description)).toBeInTheDocument();
    await waitFor(() => expect(app.router.state.location.search).toBe('?manage=google-postmaster'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('shows a connected account’s domains and disconnects it', async () => {
    const google = makeIntegration({
      id: 9,
      provider: 'google-postmaster',
      name: 'Google Postmaster Tools',
      type: 'analytics',
      keyPreview: null,
      dailyStats: false,
    });
    const { mock } = stubIntegrations([google], {
      'GET /api/postmaster/status': () =>
        jsonResponse(
          postmasterStatus({
            state: 'connected',
            domains: ['example.com', 'mail.example.com'],
            connectedAt: '2026-11-20T10:00:00.000Z',
          }),
        ),
      'DELETE /api/integrations/9': () => new Response(null, { status: 204 }),
    });
    const { user } = await openPage('/integrations?tab=analytics');
    expect(await screen.findByText('1 plugin installed')).toBeInTheDocument();
    await user.click(
      within(screen.getByTestId('plugin-card-google-postmaster')).getByRole('button', {
        name: 'Manage Google Postmaster Tools',
      }),
    );
    const body = within(await screen.findByTestId('postmaster-connected'));
    expect(body.getByTestId('integration-status')).toHaveTextContent('Connected');
    expect(body.getByTestId('postmaster-domains')).toHaveTextContent('example.com, mail.example.com');
    await user.click(body.getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('Google Postmaster Tools disconnected')).toBeInTheDocument();
    expect(callsTo(mock, 'DELETE /api/integrations/9')).toHaveLength(1);
  });
});

describe('Integrations: Mail Transfer Agents', () => {
  it('gives each MTA this app’s endpoint, says where the token comes from and whether events arrive', async () => {
    stubIntegrations([], {
      'GET /api/delivery-events': () =>
        jsonResponse([
          {
            id: 1,
            source: 'postfix',
            messageId: '4TfK2Q1xYzz9',
            recipient: 'ann@gmail.com',
            eventType: 'delivered',
            bounceClass: null,
            enhancedStatus: '2.0.0',
            smtpResponse: '250 2.0.0 OK',
            domain: 'mail.example.com',
            recipientDomain: 'gmail.com',
            mailboxProvider: 'gmail',
            sendingIp: '',
            occurredAt: new Date().toISOString(),
            receivedAt: new Date().toISOString(),
          },
        ]),
    });
    await openPage('/integrations?tab=mta');
    const origin = window.location.origin;
    for (const guide of MTA_GUIDES) {
      const card = within(await screen.findByTestId(`mta-card-${guide.id}`));
      const expected = `${origin}${guide.path}${guide.token === 'query' ? '?token=iwt_your_webhook_token' : ''}`;
      expect(card.getByTestId('mta-endpoint')).toHaveTextContent(expected);
      expect(card.getByRole('button', { name: `Copy the ${guide.name} endpoint` })).toBeInTheDocument();
    }
    expect(await screen.findByTestId('mta-token-missing')).toHaveTextContent(
      'You have no webhook token yet. Generate one in Settings',
    );
    expect(within(screen.getByTestId('mta-token')).getByRole('link', { name: 'Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
    await waitFor(() =>
      expect(within(screen.getByTestId('mta-card-postfix')).getByTestId('mta-last-event')).toHaveTextContent(
        'Last event just now: delivered to gmail.com',
      ),
    );
    expect(
      within(screen.getByTestId('mta-card-postfix')).getByRole('link', { name: /Postfix integration guide/ }),
    ).toHaveAttribute('href', '/integrations/postfix');
    expect(
      within(screen.getByTestId('mta-card-kumo')).getByRole('link', { name: /KumoMTA setup guide/ }),
    ).toHaveAttribute('href', '/mta-integration#kumo');
    const benefits = screen.getByTestId('mta-benefits');
    for (const title of ['Real-time analytics', 'Smart alerts', 'Reputation monitoring'])
      expect(benefits).toHaveTextContent(title);
  });

  it('shows the MTA a ?manage= link names', async () => {
    stubIntegrations();
    await openPage('/integrations?manage=postal');
    expect(screen.getByRole('tab', { name: 'Mail Transfer Agents' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(screen.getByTestId('mta-card-postal')).toHaveFocus());
  });
});
