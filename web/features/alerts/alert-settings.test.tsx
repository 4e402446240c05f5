import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { SMS_VERIFICATION_MESSAGES, type AlertRule, type AlertSettings } from '@contracts/alert-settings';
import {
  bodyOf,
  errorResponse,
  jsonResponse,
  makeDomain,
  preloadSignedInFrame,
  renderApp,
  settled,
} from '../../test/test-utils';
import { makeRule, makeSettings, settingsEndpoints, stubAlerts } from './test/fixtures';

beforeAll(async () => {
  await Promise.all([import('./alerts-page'), preloadSignedInFrame()]);
});

async function openSettings() {
  const app = renderApp('/alerts?tab=settings');
  const form = await screen.findByTestId('alert-settings-form');
  return { app, form: within(form) };
}

const putCalls = (fetch: ReturnType<typeof stubAlerts>) =>
  fetch.mock.calls.filter(([, init]) => init?.method === 'PUT');

describe('Alert Settings', () => {
  it('shows the spec defaults with the input bounds, the bounce hint, and nothing to save yet', async () => {
    stubAlerts([]);
    const { form } = await openSettings();
    const field = (name: RegExp) => form.getByRole('spinbutton', { name });
    expect(field(/Inbox rate/)).toHaveValue(90);
    expect(field(/Bounce rate/)).toHaveValue(5);
    expect(field(/Spam rate/)).toHaveValue(0.3);
    expect(field(/Reputation score/)).toHaveValue(70);
    expect(field(/Inbox rate/)).toHaveAttribute('max', '100');
    expect(field(/Spam rate/)).toHaveAttribute('max', '10');
    expect(field(/Spam rate/)).toHaveAttribute('step', '0.1');
    expect(form.getByText(/a bounce warning at above 5%/)).toBeInTheDocument();
    expect(form.getByRole('combobox', { name: 'Frequency' })).toHaveValue('immediate');
    expect(form.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Immediate',
      'Hourly digest',
      'Daily digest',
      'Weekly summary',
    ]);
    for (const name of ['Deliverability alerts', 'Reputation alerts', 'Bounce alerts', 'Spam alerts']) {
      expect(form.getByRole('switch', { name })).toHaveAttribute('aria-checked', 'true');
    }
    expect(form.getByRole('button', { name: 'Save Settings' })).toBeDisabled();
  });

  it('Save PUTs only the changed fields and keeps what the server answered', async () => {
    const fetch = stubAlerts([], settingsEndpoints());
    const user = userEvent.setup();
    const { app, form } = await openSettings();
    await user.clear(form.getByRole('spinbutton', { name: /Bounce rate/ }));
    await user.type(form.getByRole('spinbutton', { name: /Bounce rate/ }), '3');
    await user.click(form.getByRole('switch', { name: 'Spam alerts' }));
    await user.selectOptions(form.getByRole('combobox', { name: 'Frequency' }), 'daily');
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Alert settings saved')).toBeInTheDocument();
    expect(bodyOf(fetch, 'PUT /api/alert-settings')).toEqual({
      bounceThreshold: 3,
      emailSpam: false,
      frequency: 'daily',
    });
    await settled(app);
    expect(form.getByRole('spinbutton', { name: /Bounce rate/ })).toHaveValue(3);
    expect(form.getByRole('button', { name: 'Save Settings' })).toBeDisabled();
  });

  it('names a value out of bounds at its field and sends nothing', async () => {
    const fetch = stubAlerts([]);
    const user = userEvent.setup();
    const { form } = await openSettings();
    await user.clear(form.getByRole('spinbutton', { name: /Spam rate/ }));
    await user.type(form.getByRole('spinbutton', { name: /Spam rate/ }), '11');
    await user.clear(form.getByRole('spinbutton', { name: /Inbox rate/ }));
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    expect(await form.findByText('spamThreshold must be between 0 and 10')).toBeInTheDocument();
    expect(form.getByText('inboxThreshold must be a number')).toBeInTheDocument();
    expect(form.getByRole('spinbutton', { name: /Spam rate/ })).toHaveAttribute('aria-invalid', 'true');
    expect(putCalls(fetch)).toHaveLength(0);
  });

  it('shows "Failed to update alert settings" when the server gives no words, and its words at the field they name', async () => {
    let answer = () => new Response('', { status: 502 });
    stubAlerts([], { 'PUT /api/alert-settings': () => answer() });
    const user = userEvent.setup();
    const { form } = await openSettings();
    await user.click(form.getByRole('switch', { name: 'Bounce alerts' }));
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Failed to update alert settings')).toBeInTheDocument();

    answer = () => errorResponse(400, 'validation_error', 'inboxThreshold must be between 0 and 100');
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() =>
      expect(form.getByRole('spinbutton', { name: /Inbox rate/ })).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(form.getAllByText('inboxThreshold must be between 0 and 100').length).toBeGreaterThan(0);
  });

  it('quiet hours are optional: switched on they are sent with their times and time zone, switched off as null', async () => {
    const fetch = stubAlerts([], {
      'PUT /api/alert-settings': (init) =>
        jsonResponse(makeSettings(JSON.parse(String(init?.body)) as Partial<AlertSettings>)),
    });
    const user = userEvent.setup();
    const { form } = await openSettings();
    await user.click(form.getByRole('switch', { name: 'Quiet hours' }));
    await user.clear(form.getByRole('textbox', { name: 'Time zone' }));
    await user.type(form.getByRole('textbox', { name: 'Time zone' }), 'Mars/Olympus');
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    expect(await form.findByTestId('quiet-hours-error')).toHaveTextContent(
      'quietHours.timeZone must be a time zone such as Europe/Paris',
    );
    expect(putCalls(fetch)).toHaveLength(0);

    await user.clear(form.getByRole('textbox', { name: 'Time zone' }));
    await user.type(form.getByRole('textbox', { name: 'Time zone' }), 'Europe/Paris');
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(putCalls(fetch)).toHaveLength(1));
    expect(bodyOf(fetch, 'PUT /api/alert-settings')).toEqual({
      quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Paris' },
    });
  });

  it('without advanced_alerting locks Slack, SMS and webhooks with "Requires Professional plan" and an Upgrade link to that plan', async () => {
    stubAlerts([]);
    const { form } = await openSettings();
    expect(form.getByTestId('channels-lock-icon')).toBeInTheDocument();
    expect(within(form.getByTestId('channels-plan-lock')).getByText('Requires Professional plan')).toBeInTheDocument();
    for (const name of ['Slack notifications', 'SMS notifications', 'Webhook notifications'])
      expect(form.getByRole('switch', { name })).toBeDisabled();
    expect(form.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '/pricing?plan=professional');
  });

  it('a downgraded account can still turn a channel off, but not re-point it', async () => {
    const saved = makeSettings({ smsEnabled: true, smsNumber: '+14155550123' });
    const fetch = stubAlerts([], {
      'GET /api/alert-settings': () => jsonResponse(saved),
      'PUT /api/alert-settings': () => jsonResponse({ ...saved, smsEnabled: false }),
    });
    const user = userEvent.setup();
    const { form } = await openSettings();
    expect(form.getByRole('textbox', { name: 'Phone number' })).toBeDisabled();
    expect(form.getByRole('switch', { name: 'Slack notifications' })).toBeDisabled();
    await user.click(form.getByRole('switch', { name: 'SMS notifications' }));
    expect(form.getByRole('switch', { name: 'SMS notifications' })).toBeDisabled();
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(putCalls(fetch)).toHaveLength(1));
    expect(bodyOf(fetch, 'PUT /api/alert-settings')).toEqual({ smsEnabled: false });
  });

  it('on Professional: the saved Slack URL is shown as its preview and not sent again; a bad phone number is refused at its field', async () => {
    const saved = makeSettings({
      slackEnabled: true,
      slackWebhookPreview: 'https://hooks.slack.com/services/T000…',
      slackChannel: '#alerts',
    });
    const fetch = stubAlerts(
      [],
      { 'GET /api/alert-settings': () => jsonResponse(saved), 'PUT /api/alert-settings': () => jsonResponse(saved) },
      { subscriptionPlan: 'professional' },
    );
    const user = userEvent.setup();
    const { form } = await openSettings();
    expect(form.queryByTestId('channels-plan-lock')).not.toBeInTheDocument();
    expect(form.getByTestId('slack-url-preview')).toHaveTextContent('https://hooks.slack.com/services/T000…');
    expect(form.queryByRole('textbox', { name: 'Slack webhook URL' })).not.toBeInTheDocument();

    await user.click(form.getByRole('switch', { name: 'SMS notifications' }));
    await user.type(form.getByRole('textbox', { name: 'Phone number' }), '12345');
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    expect(await form.findByText('smsNumber must be an international number such as +14155550123')).toBeInTheDocument();
    expect(putCalls(fetch)).toHaveLength(0);

    await user.clear(form.getByRole('textbox', { name: 'Phone number' }));
    await user.type(form.getByRole('textbox', { name: 'Phone number' }), '+1 415 555 0123');
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(putCalls(fetch)).toHaveLength(1));
    expect(bodyOf(fetch, 'PUT /api/alert-settings')).toEqual({ smsEnabled: true, smsNumber: '+1 415 555 0123' });

    await user.click(form.getByRole('button', { name: 'Change' }));
    expect(form.getByRole('textbox', { name: 'Slack webhook URL' })).toHaveValue('');
  });

  it('on Professional: a Slack webhook URL that is not Slack’s incoming-webhook form is refused at its field, before sending', async () => {
    const fetch = stubAlerts(
      [],
      { 'PUT /api/alert-settings': () => jsonResponse(makeSettings()) },
      { subscriptionPlan: 'professional' },
    );
    const user = userEvent.setup();
    const { form } = await openSettings();
    await user.click(form.getByRole('switch', { name: 'Slack notifications' }));
    await user.type(
      form.getByRole('textbox', { name: 'Slack webhook URL' }),
      'https://hooks.example.com/services/T000/B000/XXXX',
    );
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    expect(
      await form.findByText(
        'slackWebhookUrl must be a Slack incoming webhook URL such as https://hooks.slack.com/services/T000/B000/XXXX',
      ),
    ).toBeInTheDocument();
    expect(putCalls(fetch)).toHaveLength(0);

    // Slack's documented form (api.slack.com/messaging/webhooks) goes through.
    await user.clear(form.getByRole('textbox', { name: 'Slack webhook URL' }));
    await user.type(
      form.getByRole('textbox', { name: 'Slack webhook URL' }),
      'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
    );
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(putCalls(fetch)).toHaveLength(1));
  });

  it('proves the saved SMS number with a texted code before alerts are texted to it', async () => {
    const saved = makeSettings({ smsEnabled: true, smsNumber: '+14155550123', smsVerified: false });
    const fetch = stubAlerts(
      [],
      {
        'GET /api/alert-settings': () => jsonResponse(saved),
        'POST /api/alert-settings/sms-code': () =>
          jsonResponse({ message: SMS_VERIFICATION_MESSAGES.sent('+14155550123') }),
        'POST /api/alert-settings/sms-code/verify': (init) =>
          JSON.parse(String(init?.body)).code === '123456'
            ? jsonResponse({ ...saved, smsVerified: true })
            : errorResponse(400, 'validation_error', SMS_VERIFICATION_MESSAGES.wrong),
      },
      { subscriptionPlan: 'professional' },
    );
    const user = userEvent.setup();
    const { form } = await openSettings();
    expect(form.getByTestId('sms-verification')).toHaveTextContent('+14155550123 is not verified');
    await user.click(form.getByRole('button', { name: 'Text me a code' }));
    expect(await form.findByText(SMS_VERIFICATION_MESSAGES.sent('+14155550123'))).toBeInTheDocument();

    await user.type(form.getByLabelText('Code'), '654321{Enter}');
    expect(await form.findByText(SMS_VERIFICATION_MESSAGES.wrong)).toBeInTheDocument();
    // Enter in the code field verifies; it never saves the settings.
    expect(putCalls(fetch)).toEqual([]);
    await user.clear(form.getByLabelText('Code'));
    await user.type(form.getByLabelText('Code'), '123456');
    await user.click(form.getByRole('button', { name: 'Verify' }));
    expect(await form.findByTestId('sms-verified')).toHaveTextContent('+14155550123 is verified');
    const tried = fetch.mock.calls
      .filter(([url]) => String(url) === '/api/alert-settings/sms-code/verify')
      .map(([, init]) => JSON.parse(String(init?.body)));
    expect(tried).toEqual([{ code: '654321' }, { code: '123456' }]);
  });

  it('on Professional, on a server without an SMS provider: the SMS switch is disabled with the reason', async () => {
    stubAlerts(
      [],
      { 'GET /api/alert-settings': () => jsonResponse(makeSettings({ smsAvailable: false })) },
      { subscriptionPlan: 'professional' },
    );
    const { form } = await openSettings();
    expect(form.getByRole('switch', { name: 'SMS notifications' })).toBeDisabled();
    expect(
      form.getByText(
        'SMS alerts are not available: this server has no SMS provider (Twilio) set up. Ask its administrator to configure one.',
      ),
    ).toBeInTheDocument();
    expect(form.getByRole('switch', { name: 'Slack notifications' })).toBeEnabled();
  });

  it('on a server without an SMS provider, an SMS switch left on stays enabled so it can be turned off', async () => {
    stubAlerts(
      [],
      {
        'GET /api/alert-settings': () =>
          jsonResponse(makeSettings({ smsAvailable: false, smsEnabled: true, smsNumber: '+14155550123' })),
      },
      { subscriptionPlan: 'professional' },
    );
    const { form } = await openSettings();
    expect(form.getByRole('switch', { name: 'SMS notifications' })).toBeEnabled();
    expect(form.getByText(/this server has no SMS provider \(Twilio\) set up/)).toBeInTheDocument();
  });

  it('on Professional: shows the webhook’s signing secret once, with a copy button, after the save that made it', async () => {
    const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
    let answerSecret = true;
    const fetch = stubAlerts(
      [],
      settingsEndpoints((saved) => (answerSecret ? { ...saved, webhookSigningSecret: SECRET } : saved)),
      { subscriptionPlan: 'professional' },
    );
    const user = userEvent.setup();
    const { app, form } = await openSettings();
    expect(form.queryByTestId('webhook-signing-secret')).not.toBeInTheDocument();
    await user.click(form.getByRole('switch', { name: 'Webhook notifications' }));
    await user.type(form.getByRole('textbox', { name: 'Webhook URL' }), 'https://hooks.example.com/alerts');
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    const box = within(await form.findByTestId('webhook-signing-secret'));
    expect(bodyOf(fetch, 'PUT /api/alert-settings')).toEqual({
      webhookEnabled: true,
      webhookUrl: 'https://hooks.example.com/alerts',
    });
    expect(box.getByText(SECRET)).toBeInTheDocument();
    expect(box.getByRole('button', { name: 'Copy signing secret' })).toBeInTheDocument();
    expect(box.getByText(/Shown once: copy it now/)).toBeInTheDocument();

    // Turned off: the secret goes with the webhook.
    answerSecret = false;
    await settled(app);
    await user.click(form.getByRole('switch', { name: 'Webhook notifications' }));
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(putCalls(fetch)).toHaveLength(2));
    await waitFor(() => expect(form.queryByTestId('webhook-signing-secret')).not.toBeInTheDocument());
  });
});

describe('Alert rules', () => {
  it('lists rules with type, domain or All domains, thresholds with their unit, window and channels', async () => {
    stubAlerts([], {
      'GET /api/alerts/rules': () =>
        jsonResponse([
          makeRule(),
          makeRule({
            id: 2,
            name: 'Score',
            type: 'senderScore',
            domain: 'example.com',
            threshold: { warning: 70, critical: 50 },
            timeWindow: '24h',
            notifications: { email: true, webhook: true, slack: false, sms: false },
          }),
        ]),
    });
    await openSettings();
    const rules = await screen.findAllByTestId('alert-rule');
    expect(rules[0]).toHaveTextContent('High bounce rate');
    expect(rules[0]).toHaveTextContent('Bounce rate · All domains');
    expect(rules[0]).toHaveTextContent('Warning above 5% · Critical above 10%');
    expect(rules[0]).toHaveTextContent('Over 1 hour · Email');
    expect(rules[1]).toHaveTextContent('Sender score · example.com');
    expect(rules[1]).toHaveTextContent('Warning below 70 · Critical below 50');
    expect(rules[1]).toHaveTextContent('Over 24 hours · Email, Webhook');
  });

  it('creates a rule: explains the direction, refuses a critical threshold on the wrong side, then POSTs it', async () => {
    let rules: AlertRule[] = [];
    const fetch = stubAlerts(
      [],
      {
        'GET /api/alerts/rules': () => jsonResponse(rules),
        'POST /api/alerts/rules': (init) => {
          const body = JSON.parse(String(init?.body)) as Omit<AlertRule, 'id' | 'createdAt' | 'enabled'>;
          rules = [makeRule({ ...body, id: 5 })];
          return jsonResponse(rules[0]);
        },
      },
      {},
      [makeDomain({ domain: 'example.com' })],
    );
    const user = userEvent.setup();
    await openSettings();
    expect(await screen.findByTestId('rules-empty')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Rule' }));
    const dialog = within(await screen.findByTestId('create-rule-dialog'));
    await user.click(dialog.getByRole('button', { name: 'Create Rule' }));
    expect(await dialog.findByText('name is required')).toBeInTheDocument();

    await user.type(dialog.getByRole('textbox', { name: 'Name' }), 'Inbox drop');
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Type' }), 'inboxRate');
    expect(dialog.getByTestId('rule-direction')).toHaveTextContent(
      /falls below the warning threshold.*critical is the lower figure/,
    );
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Domain' }), 'example.com');
    await user.clear(dialog.getByRole('spinbutton', { name: /Warning threshold/ }));
    await user.type(dialog.getByRole('spinbutton', { name: /Warning threshold/ }), '80');
    await user.clear(dialog.getByRole('spinbutton', { name: /Critical threshold/ }));
    await user.type(dialog.getByRole('spinbutton', { name: /Critical threshold/ }), '90');
    await user.click(dialog.getByRole('button', { name: 'Create Rule' }));
    expect(
      await dialog.findByText('The critical threshold must be below the warning threshold for Inbox placement rate.'),
    ).toBeInTheDocument();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await user.clear(dialog.getByRole('spinbutton', { name: /Critical threshold/ }));
    await user.type(dialog.getByRole('spinbutton', { name: /Critical threshold/ }), '60');
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Time window' }), '24h');
    // Webhook, Slack and SMS need advanced_alerting: the free plan gets e-mail only.
    expect(dialog.getByRole('checkbox', { name: 'Slack' })).toBeDisabled();
    await user.click(dialog.getByRole('button', { name: 'Create Rule' }));
    expect(await screen.findByText('Alert rule created')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST /api/alerts/rules')).toEqual({
      name: 'Inbox drop',
      type: 'inboxRate',
      domain: 'example.com',
      threshold: { warning: 80, critical: 60 },
      notifications: { email: true, webhook: false, slack: false, sms: false },
      timeWindow: '24h',
    });
    expect(await screen.findByText('Inbox drop')).toBeInTheDocument();
    expect(screen.queryByTestId('create-rule-dialog')).not.toBeInTheDocument();
  });

  it("shows the server's message in the dialog when it names no field", async () => {
    stubAlerts([], {
      'POST /api/alerts/rules': () =>
        errorResponse(400, 'validation_error', 'You can keep at most 100 alert rules: delete one to add another'),
    });
    const user = userEvent.setup();
    await openSettings();
    await user.click(await screen.findByRole('button', { name: 'Create Rule' }));
    const dialog = within(await screen.findByTestId('create-rule-dialog'));
    await user.type(dialog.getByRole('textbox', { name: 'Name' }), 'One more');
    await user.click(dialog.getByRole('button', { name: 'Create Rule' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'You can keep at most 100 alert rules: delete one to add another',
    );
  });

  it('deletes a rule after confirmation', async () => {
    let rules = [makeRule()];
    const fetch = stubAlerts([], {
      'GET /api/alerts/rules': () => jsonResponse(rules),
      'DELETE /api/alerts/rules/1': () => {
        rules = [];
        return new Response(null, { status: 204 });
      },
    });
    const user = userEvent.setup();
    await openSettings();
    await user.click(await screen.findByRole('button', { name: 'Delete rule High bounce rate' }));
    const dialog = within(await screen.findByTestId('delete-rule-dialog'));
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await user.click(dialog.getByRole('button', { name: /Delete/ }));
    expect(await screen.findByText('Alert rule deleted')).toBeInTheDocument();
    expect(await screen.findByTestId('rules-empty')).toBeInTheDocument();
  });
});
