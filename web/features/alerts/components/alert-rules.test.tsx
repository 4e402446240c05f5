import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonResponse, makeDomain, preloadSignedInFrame, renderApp } from '../../../test/test-utils';
import { SMS_UNAVAILABLE } from '@contracts/alert-settings';
import { makeRule, makeSettings, stubAlerts } from '../test/fixtures';

beforeAll(async () => {
  await Promise.all([import('../alerts-page'), preloadSignedInFrame()]);
});

describe('what an alert rule is judged on', () => {
  it("shows on each rule's row the sentence the server gives", async () => {
    const judgedOn =
      "Judged on the MTA and ESP delivery events of the last hour sent from example.com or its subdomains. Statistics imported per day from an ESP cover your whole account, so they do not count for one domain's rule.";
    stubAlerts([], { 'GET /api/alerts/rules': () => jsonResponse([makeRule({ domain: 'example.com', judgedOn })]) });
    renderApp('/alerts?tab=settings');
    const [rule] = await screen.findAllByTestId('alert-rule');
    expect(within(rule).getByTestId('rule-judged-on')).toHaveTextContent(judgedOn);
  });

  it('says in the Create Rule form, for the type, domain and window chosen, which figures the rule will be judged on', async () => {
    stubAlerts([], {}, {}, [makeDomain({ domain: 'example.com' })]);
    const user = userEvent.setup();
    renderApp('/alerts?tab=settings');
    await user.click(await screen.findByRole('button', { name: 'Create Rule' }));
    const dialog = within(await screen.findByTestId('create-rule-dialog'));
    const basis = () => dialog.getByTestId('rule-basis');
    // The form opens on a bounce rate over 1 hour for all domains.
    expect(basis()).toHaveTextContent(
      'Judged on the MTA and ESP delivery events of the last hour, all domains. Statistics imported per day from an ESP cannot be split into hours, so they count only in 24-hour and 7-day rules.',
    );
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Time window' }), '7d');
    expect(basis()).toHaveTextContent(
      'Judged on the MTA and ESP delivery events of the last 7 days, all domains; when they hold fewer than 100 messages, on the daily statistics imported from your ESPs (the last 7 UTC days).',
    );
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Domain' }), 'example.com');
    expect(basis()).toHaveTextContent(
      /sent from example\.com or its subdomains\. Statistics imported per day from an ESP cover your whole account/,
    );
    await user.selectOptions(dialog.getByRole('combobox', { name: 'Type' }), 'senderScore');
    expect(basis()).toHaveTextContent(
      'Judged on the latest sender score of example.com: a score is a reading, not a count over time, so the time window does not apply.',
    );
  });

  it('keeps SMS off in the Create Rule form when the server has no SMS provider, and says why', async () => {
    const noSms = { ...makeSettings(), smsAvailable: false };
    stubAlerts([], { 'GET /api/alert-settings': () => jsonResponse(noSms) }, { subscriptionPlan: 'professional' });
    const user = userEvent.setup();
    renderApp('/alerts?tab=settings');
    await user.click(await screen.findByRole('button', { name: 'Create Rule' }));
    const dialog = within(await screen.findByTestId('create-rule-dialog'));
    expect(await dialog.findByTestId('rule-sms-unavailable')).toHaveTextContent(SMS_UNAVAILABLE);
    expect(dialog.getByRole('checkbox', { name: 'SMS' })).toBeDisabled();
    expect(dialog.getByRole('checkbox', { name: 'Slack' })).toBeEnabled();
  });
});
