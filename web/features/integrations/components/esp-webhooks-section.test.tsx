import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EspWebhookStatus } from '@contracts/esp-webhooks';
import { errorResponse, jsonResponse, preloadSignedInFrame, renderApp, settled } from '../../../test/test-utils';
import { callsTo, stubIntegrations } from '../test/fixtures';

beforeAll(async () => {
  await Promise.all([import('../integrations-page'), preloadSignedInFrame()]);
});

const status = (
  provider: EspWebhookStatus['provider'],
  overrides: Partial<EspWebhookStatus> = {},
): EspWebhookStatus => ({
  provider,
  path: `/api/esp-webhooks/${provider}`,
  secretSet: false,
  secretRequired: provider === 'sendgrid' || provider === 'mailgun',
  lastEventAt: null,
  ...overrides,
});

describe('Integrations: ESP event webhooks', () => {
  it('shows each ESP’s URL with the token placeholder, its secret state and its last event', async () => {
    stubIntegrations([], {
      'GET /api/esp-webhooks': () =>
        jsonResponse([
          status('sendgrid'),
          status('mailgun', { secretSet: true, lastEventAt: new Date().toISOString(), droppedLast30Days: 1204 }),
          status('postmark'),
          status('ses'),
        ]),
    });
    const app = renderApp('/integrations');
    const sendgrid = await screen.findByTestId('esp-webhook-sendgrid');
    await settled(app);
    expect(
      within(sendgrid).getByText(/\/api\/esp-webhooks\/sendgrid\?token=iwt_your_webhook_token$/),
    ).toBeInTheDocument();
    expect(within(sendgrid).getByTestId('esp-webhook-secret-state')).toHaveTextContent(
      'No secret saved yet: its posts are refused until you save it.',
    );
    expect(within(sendgrid).getByTestId('esp-webhook-last-event')).toHaveTextContent('No events received yet');
    const mailgun = screen.getByTestId('esp-webhook-mailgun');
    expect(within(mailgun).getByTestId('esp-webhook-last-event')).toHaveTextContent('Last event just now');
    expect(within(mailgun).getByRole('button', { name: 'Remove secret' })).toBeInTheDocument();
    expect(within(mailgun).getByTestId('esp-webhook-dropped')).toHaveTextContent(
      '1,204 messages not sent by Mailgun in the last 30 days (dropped or suppressed before sending)',
    );
    expect(within(sendgrid).queryByTestId('esp-webhook-dropped')).not.toBeInTheDocument();
    const ses = screen.getByTestId('esp-webhook-ses');
    expect(within(ses).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(ses).getByTestId('esp-webhook-secret-state')).toHaveTextContent(/No secret needed/);
  });

  it('saves a secret, and shows the server’s refusal at the form', async () => {
    let saved = false;
    const { mock } = stubIntegrations([], {
      'GET /api/esp-webhooks': () => jsonResponse([status('sendgrid', { secretSet: saved }), status('ses')]),
      'PUT /api/esp-webhooks/sendgrid/secret': (init) => {
        const { secret } = JSON.parse(String(init?.body)) as { secret: string };
        if (!secret.startsWith('MFkw'))
          return errorResponse(
            400,
            'validation_error',
            'That is not a SendGrid verification key: copy the key SendGrid shows',
          );
        saved = true;
        return jsonResponse({ message: 'Secret saved' });
      },
    });
    const app = renderApp('/integrations');
    const user = userEvent.setup();
    const sendgrid = await screen.findByTestId('esp-webhook-sendgrid');
    await settled(app);

    await user.type(within(sendgrid).getByLabelText('Verification key'), 'not-a-key');
    await user.click(within(sendgrid).getByRole('button', { name: 'Save secret' }));
    expect(await within(sendgrid).findByRole('alert')).toHaveTextContent(/^That is not a SendGrid verification key/);

    await user.clear(within(sendgrid).getByLabelText('Verification key'));
    await user.type(within(sendgrid).getByLabelText('Verification key'), 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE');
    await user.click(within(sendgrid).getByRole('button', { name: 'Save secret' }));
    await waitFor(() =>
      expect(
        within(screen.getByTestId('esp-webhook-sendgrid')).getByTestId('esp-webhook-secret-state'),
      ).toHaveTextContent('Secret saved: posts are checked with it.'),
    );
    expect(callsTo(mock, 'PUT /api/esp-webhooks/sendgrid/secret').map((c) => c.body)).toEqual([
      { secret: 'not-a-key' },
      { secret: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE' },
    ]);
  });
});
