import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_ERRORS } from '@contracts/api-keys';
import { errorResponse, makeUser, renderApp, preloadSignedInFrame, settled } from '../../test/test-utils';
import { callsOf, EXISTING_KEY, EXISTING_TOKEN, stubSettings } from './test/fixtures';

beforeAll(async () => {
  await Promise.all([import('../../app/settings-page'), preloadSignedInFrame()]);
});

const FIRST_KEY = 'ipk_FirstKey0123456789abcdefghijklmnopqrstu';
const SECOND_KEY = 'ipk_SecondKey123456789abcdefghijklmnopqrst';
const FIRST_TOKEN = 'iwt_FirstToken123456789abcdefghijklmnopqr';

async function openSettings() {
  const app = renderApp('/settings');
  const user = userEvent.setup();
  await screen.findByTestId('settings-page');
  return { app, user };
}

async function apiKeyCard() {
  return within(await screen.findByTestId('api-key-card'));
}

async function tokenCard() {
  return within(await screen.findByTestId('webhook-token-card'));
}

describe('Settings: the page', () => {
  it('holds the API key, webhook token, resources, the security sections and the Danger Zone', async () => {
    stubSettings();
    const { app } = await openSettings();
    await settled(app);
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    // On the free plan the API Keys heading starts with its lock ("Locked API Keys").
    for (const name of [/API Keys$/, /^Webhook Token$/, /^Resources$/, /^Security$/, /^Danger Zone$/]) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeInTheDocument();
    }
    expect(screen.getByRole('heading', { name: 'Change password' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Active sessions' })).toBeInTheDocument();
  });

  it('lists the resources: API documentation, integrations and webhook documentation, marked Soon while they are being built', async () => {
    stubSettings();
    await openSettings();
    const resources = within(await screen.findByTestId('resource-links'));
    for (const label of ['API Documentation', 'Integrations', 'Webhook Documentation']) {
      expect(resources.getByText(label)).toBeInTheDocument();
    }
    // content/screens.ts says these pages are not built yet: nothing links to them.
    expect(resources.queryAllByRole('link')).toHaveLength(3 - resources.queryAllByTestId('resource-soon').length);
  });
});

describe('Settings: API key', () => {
  it('with no key: says so, offers Generate, and shows no quick-start examples', async () => {
    stubSettings();
    await openSettings();
    const card = await apiKeyCard();
    expect(await card.findByText('You have no API key yet.')).toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Generate API Key' })).toBeEnabled();
    expect(card.queryByRole('button', { name: 'Regenerate' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('quick-start')).not.toBeInTheDocument();
  });

  it('generates a key and shows it whole once, with a copy button, the warning and examples that carry it; Done leaves the preview', async () => {
    const fetch = stubSettings();
    const { user } = await openSettings();
    const card = await apiKeyCard();
    await user.click(await card.findByRole('button', { name: 'Generate API Key' }));

    const revealed = within(await card.findByTestId('api-key-card-revealed'));
    expect(revealed.getByTestId('api-key-card-revealed-value')).toHaveTextContent(FIRST_KEY);
    expect(revealed.getByText(/It will not be shown again/)).toBeInTheDocument();
    expect(callsOf(fetch)).toContain('POST /api/api-keys/generate');
    expect(card.getByTestId('api-key-card-preview')).toHaveTextContent('ipk_Firs…');
    expect(card.getByTestId('api-key-card-last-used')).toHaveTextContent('Never');

    await user.click(revealed.getByRole('button', { name: 'Copy API key' }));
    expect(await navigator.clipboard.readText()).toBe(FIRST_KEY);
    expect(await screen.findByText('Copied to clipboard')).toBeInTheDocument();

    const code = await screen.findByTestId('quick-start-code');
    expect(code).toHaveTextContent(`curl ${window.location.origin}/api/domains`);
    expect(code).toHaveTextContent(`Authorization: Bearer ${FIRST_KEY}`);
    expect(screen.getByText('These examples contain your new key: keep them private.')).toBeInTheDocument();

    await user.click(revealed.getByRole('button', { name: 'Done' }));
    expect(card.queryByTestId('api-key-card-revealed')).not.toBeInTheDocument();
    expect(screen.queryByText(FIRST_KEY, { exact: false })).not.toBeInTheDocument();
    expect(card.getByTestId('api-key-card-preview')).toHaveTextContent('ipk_Firs…');
    expect(await screen.findByTestId('quick-start-code')).toHaveTextContent('Authorization: Bearer YOUR_API_KEY');
  });

  it('with a key: shows its preview and dates, never the key, and quick-start examples in cURL, Node.js and Python with a placeholder', async () => {
    stubSettings({ apiKey: EXISTING_KEY });
    const { user } = await openSettings();
    const card = await apiKeyCard();
    expect(await card.findByTestId('api-key-card-preview')).toHaveTextContent('ipk_Old9…');
    expect(card.getByTestId('api-key-card-created')).toHaveTextContent(/2025/);
    expect(card.getByTestId('api-key-card-last-used')).toHaveTextContent(/2025/);
    expect(card.queryByTestId('api-key-card-revealed')).not.toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Regenerate' })).toBeEnabled();
    expect(card.getByRole('button', { name: 'Revoke' })).toBeEnabled();

    const quickStart = within(await screen.findByTestId('quick-start'));
    expect(quickStart.getByText('YOUR_API_KEY')).toBeInTheDocument();
    expect(quickStart.getByTestId('quick-start-code')).toHaveTextContent('curl -X POST');
    await user.click(quickStart.getByRole('tab', { name: 'Node.js' }));
    expect(quickStart.getByTestId('quick-start-code')).toHaveTextContent(
      `const BASE_URL = '${window.location.origin}';`,
    );
    await user.click(quickStart.getByRole('tab', { name: 'Python' }));
    const python = quickStart.getByTestId('quick-start-code');
    expect(python).toHaveTextContent('import requests');
    expect(python).toHaveTextContent('API_KEY = "YOUR_API_KEY"');
    await user.click(quickStart.getByRole('button', { name: 'Copy Python example' }));
    expect(await navigator.clipboard.readText()).toContain('requests.post(f"{BASE_URL}/api/domains"');
    expect(await screen.findByText('Copied to clipboard')).toBeInTheDocument();
  });

  it('regenerates after a confirmation that says the old key stops working, then shows the new key once', async () => {
    const fetch = stubSettings({ apiKey: EXISTING_KEY, issuedKeys: [SECOND_KEY] });
    const { user } = await openSettings();
    const card = await apiKeyCard();
    await user.click(await card.findByRole('button', { name: 'Regenerate' }));
    const dialog = within(await screen.findByTestId('api-key-card-confirm-regenerate'));
    expect(dialog.getByText(/The current key stops working at once/)).toBeInTheDocument();
    expect(callsOf(fetch)).not.toContain('POST /api/api-keys/regenerate');
    await user.click(dialog.getByRole('button', { name: 'Regenerate' }));
    expect(await card.findByTestId('api-key-card-revealed-value')).toHaveTextContent(SECOND_KEY);
    expect(screen.queryByTestId('api-key-card-confirm-regenerate')).not.toBeInTheDocument();
    expect(callsOf(fetch)).toContain('POST /api/api-keys/regenerate');
    expect(card.getByTestId('api-key-card-preview')).toHaveTextContent('ipk_Seco…');
  });

  it('Cancel in the confirmation keeps the key', async () => {
    const fetch = stubSettings({ apiKey: EXISTING_KEY });
    const { user, app } = await openSettings();
    const card = await apiKeyCard();
    await user.click(await card.findByRole('button', { name: 'Revoke' }));
    await user.click(
      within(await screen.findByTestId('api-key-card-confirm-revoke')).getByRole('button', { name: 'Cancel' }),
    );
    await settled(app);
    expect(callsOf(fetch)).not.toContain('DELETE /api/api-keys');
    expect(card.getByTestId('api-key-card-preview')).toHaveTextContent('ipk_Old9…');
  });

  it('revokes after a confirmation: no key any more, no examples, and a toast', async () => {
    const fetch = stubSettings({ apiKey: EXISTING_KEY });
    const { user } = await openSettings();
    const card = await apiKeyCard();
    await screen.findByTestId('quick-start');
    await user.click(await card.findByRole('button', { name: 'Revoke' }));
    const dialog = within(await screen.findByTestId('api-key-card-confirm-revoke'));
    expect(dialog.getByText(/requests made with it are refused/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Revoke' }));
    expect(await card.findByText('You have no API key yet.')).toBeInTheDocument();
    expect(await screen.findByText('API key revoked')).toBeInTheDocument();
    expect(screen.queryByTestId('quick-start')).not.toBeInTheDocument();
    expect(callsOf(fetch)).toContain('DELETE /api/api-keys');
  });

  it.each([
    ['generate', 'POST /api/api-keys/generate', API_KEY_ERRORS.generate, 'Generate API Key'],
    ['regenerate', 'POST /api/api-keys/regenerate', API_KEY_ERRORS.regenerate, 'Regenerate'],
    ['revoke', 'DELETE /api/api-keys', API_KEY_ERRORS.revoke, 'Revoke'],
  ])(
    'a failed %s says "%s" in the spec’s words, with the server’s reason, and changes nothing',
    async (action, call, text, button) => {
      stubSettings({
        apiKey: action === 'generate' ? undefined : EXISTING_KEY,
        overrides: { [call]: () => errorResponse(503, 'unavailable', 'The database is not answering') },
      });
      const { user } = await openSettings();
      const card = await apiKeyCard();
      await user.click(await card.findByRole('button', { name: button }));
      if (action !== 'generate') {
        const dialog = within(await screen.findByTestId(`api-key-card-confirm-${action}`));
        await user.click(dialog.getByRole('button', { name: button }));
      }
      expect(await screen.findByText(text)).toBeInTheDocument();
      expect(screen.getByText('The database is not answering')).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
      expect(card.queryByTestId('api-key-card-revealed')).not.toBeInTheDocument();
      if (action === 'generate') expect(card.getByText('You have no API key yet.')).toBeInTheDocument();
      else expect(card.getByTestId('api-key-card-preview')).toHaveTextContent('ipk_Old9…');
    },
  );

  it('says so when the status cannot be loaded', async () => {
    stubSettings({
      overrides: { 'GET /api/api-keys/status': () => errorResponse(500, 'internal', 'Something went wrong') },
    });
    await openSettings();
    const card = await apiKeyCard();
    expect(await card.findByText('Something went wrong')).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Generate API Key' })).not.toBeInTheDocument();
  });
});

describe('Settings: API access and the plan', () => {
  it('on the free plan: a lock and "Requires Professional plan", and a key can still be generated', async () => {
    stubSettings({ user: makeUser({ subscriptionPlan: 'free' }) });
    await openSettings();
    const card = await apiKeyCard();
    const banner = within(await card.findByTestId('api-access-plan-lock'));
    expect(banner.getByText('Requires Professional plan')).toBeInTheDocument();
    expect(banner.getByText(/requests made with it are refused until you upgrade/)).toBeInTheDocument();
    expect(card.getByTestId('api-access-lock-icon')).toBeInTheDocument();
    expect(await card.findByRole('button', { name: 'Generate API Key' })).toBeEnabled();
  });

  it('on the Professional plan: no lock, API access included', async () => {
    stubSettings({ user: makeUser({ subscriptionPlan: 'professional' }) });
    await openSettings();
    const card = await apiKeyCard();
    expect(await card.findByTestId('api-access-included')).toHaveTextContent(
      'API access is included in your Professional Plan.',
    );
    expect(card.queryByTestId('api-access-plan-lock')).not.toBeInTheDocument();
    expect(card.queryByTestId('api-access-lock-icon')).not.toBeInTheDocument();
  });
});

describe('Settings: webhook token', () => {
  it('generates a token shown hidden behind Show/Hide, copyable, with the warning; Done leaves the preview', async () => {
    const fetch = stubSettings();
    const { user } = await openSettings();
    const card = await tokenCard();
    expect(await card.findByText('You have no webhook token yet.')).toBeInTheDocument();
    await user.click(card.getByRole('button', { name: 'Generate Webhook Token' }));
    const revealed = within(await card.findByTestId('webhook-token-card-revealed'));
    const value = revealed.getByTestId('webhook-token-card-revealed-value');
    expect(value).toHaveTextContent(/^iwt_•+$/);
    expect(revealed.getByText(/It will not be shown again/)).toBeInTheDocument();

    await user.click(revealed.getByRole('button', { name: 'Show webhook token' }));
    expect(value).toHaveTextContent(FIRST_TOKEN);
    await user.click(revealed.getByRole('button', { name: 'Hide webhook token' }));
    expect(value).not.toHaveTextContent(FIRST_TOKEN);

    await user.click(revealed.getByRole('button', { name: 'Copy webhook token' }));
    expect(await navigator.clipboard.readText()).toBe(FIRST_TOKEN);
    expect(await screen.findByText('Copied to clipboard')).toBeInTheDocument();
    expect(callsOf(fetch)).toContain('POST /api/webhook-tokens/generate');

    await user.click(revealed.getByRole('button', { name: 'Done' }));
    expect(card.queryByTestId('webhook-token-card-revealed')).not.toBeInTheDocument();
    expect(card.getByTestId('webhook-token-card-preview')).toHaveTextContent('iwt_Firs…');
    // A token has no "last used" of its own, and the API key's examples do not appear for it.
    expect(card.queryByTestId('webhook-token-card-last-used')).not.toBeInTheDocument();
    expect(screen.queryByTestId('quick-start')).not.toBeInTheDocument();
  });

  it('regenerates and revokes an existing token after confirmations', async () => {
    const fetch = stubSettings({ token: EXISTING_TOKEN, issuedTokens: ['iwt_NewToken0123456789abcdefghijklmnopqrs'] });
    const { user } = await openSettings();
    const card = await tokenCard();
    expect(await card.findByTestId('webhook-token-card-preview')).toHaveTextContent('iwt_Old7…');

    await user.click(card.getByRole('button', { name: 'Regenerate' }));
    const regenerate = within(await screen.findByTestId('webhook-token-card-confirm-regenerate'));
    expect(regenerate.getByText(/The current token stops working at once/)).toBeInTheDocument();
    await user.click(regenerate.getByRole('button', { name: 'Regenerate' }));
    expect(await card.findByTestId('webhook-token-card-revealed')).toBeInTheDocument();
    expect(card.getByTestId('webhook-token-card-preview')).toHaveTextContent('iwt_NewT…');

    await user.click(card.getByRole('button', { name: 'Revoke' }));
    await user.click(
      within(await screen.findByTestId('webhook-token-card-confirm-revoke')).getByRole('button', { name: 'Revoke' }),
    );
    expect(await card.findByText('You have no webhook token yet.')).toBeInTheDocument();
    expect(card.queryByTestId('webhook-token-card-revealed')).not.toBeInTheDocument();
    expect(await screen.findByText('Webhook token revoked')).toBeInTheDocument();
    expect(callsOf(fetch)).toEqual(
      expect.arrayContaining(['POST /api/webhook-tokens/regenerate', 'DELETE /api/webhook-tokens']),
    );
  });

  it.each([
    ['generate', 'POST /api/webhook-tokens/generate', API_KEY_ERRORS.generateToken, 'Generate Webhook Token'],
    ['regenerate', 'POST /api/webhook-tokens/regenerate', API_KEY_ERRORS.regenerateToken, 'Regenerate'],
    ['revoke', 'DELETE /api/webhook-tokens', API_KEY_ERRORS.revokeToken, 'Revoke'],
  ])('a failed %s says "%s"', async (action, call, text, button) => {
    stubSettings({
      token: action === 'generate' ? undefined : EXISTING_TOKEN,
      overrides: { [call]: () => errorResponse(500, 'internal', 'Something went wrong') },
    });
    const { user } = await openSettings();
    const card = await tokenCard();
    await user.click(await card.findByRole('button', { name: button }));
    if (action !== 'generate') {
      await user.click(
        within(await screen.findByTestId(`webhook-token-card-confirm-${action}`)).getByRole('button', { name: button }),
      );
    }
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(card.queryByTestId('webhook-token-card-revealed')).not.toBeInTheDocument();
  });
});

describe('Settings: Danger Zone', () => {
  it('asks for the username (or DELETE) before Delete Account is enabled', async () => {
    stubSettings({ user: makeUser({ username: 'ada' }) });
    const { user } = await openSettings();
    await user.click(within(await screen.findByTestId('danger-zone')).getByRole('button', { name: 'Delete Account' }));
    const dialog = within(await screen.findByTestId('delete-account-dialog'));
    const confirm = dialog.getByRole('button', { name: 'Delete Account' });
    const field = dialog.getByLabelText('Type your username or DELETE to confirm');
    expect(confirm).toBeDisabled();
    await user.type(field, 'ad');
    expect(confirm).toBeDisabled();
    await user.type(field, 'a');
    expect(confirm).toBeEnabled();
    await user.clear(field);
    await user.type(field, 'delete');
    expect(confirm).toBeDisabled();
    await user.clear(field);
    await user.type(field, 'DELETE');
    expect(confirm).toBeEnabled();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('delete-account-dialog')).not.toBeInTheDocument());
  });

  it('deletes the account with DELETE /api/account, clears the cache and lands on the landing page at /', async () => {
    const fetch = stubSettings({ user: makeUser({ username: 'ada' }), apiKey: EXISTING_KEY });
    const { user, app } = await openSettings();
    await screen.findByTestId('api-key-card-preview');
    await user.click(within(await screen.findByTestId('danger-zone')).getByRole('button', { name: 'Delete Account' }));
    const dialog = within(await screen.findByTestId('delete-account-dialog'));
    await user.type(dialog.getByLabelText('Type your username or DELETE to confirm'), 'ada');
    await user.click(dialog.getByRole('button', { name: 'Delete Account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'InboxPulse' })).toBeInTheDocument();
    expect(app.router.state.location.pathname).toBe('/');
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
    expect(callsOf(fetch)).toContain('DELETE /api/account');
    expect(app.queryClient.getQueryData(['/api/api-keys/status'])).toBeUndefined();
    expect(await screen.findByText('Account deleted')).toBeInTheDocument();
  });

  it('on failure stays, and toasts the spec’s words with the server’s message', async () => {
    stubSettings({
      overrides: { 'DELETE /api/account': () => errorResponse(500, 'internal', 'Something went wrong') },
    });
    const { user, app } = await openSettings();
    await user.click(within(await screen.findByTestId('danger-zone')).getByRole('button', { name: 'Delete Account' }));
    const dialog = within(await screen.findByTestId('delete-account-dialog'));
    await user.type(dialog.getByLabelText('Type your username or DELETE to confirm'), 'DELETE');
    await user.click(dialog.getByRole('button', { name: 'Delete Account' }));
    expect(await screen.findByText('Failed to delete account. Please contact support.')).toBeInTheDocument();
    expect(screen.getByText('Something went wrong')).toBeInTheDocument();
    await settled(app);
    expect(app.router.state.location.pathname).toBe('/settings');
    expect(screen.getByTestId('settings-page')).toBeInTheDocument();
  });
});
