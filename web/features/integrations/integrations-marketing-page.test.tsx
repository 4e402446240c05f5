import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderApp, signedOut, stubFetch } from '../../test/test-utils';

beforeAll(async () => {
  await import('./integrations-marketing-page');
});

async function open() {
  stubFetch(signedOut);
  renderApp('/integrations');
  return screen.findByTestId('integrations-marketing-page');
}

const hrefOf = (name: string | RegExp) => screen.getByRole('link', { name }).getAttribute('href');

describe('Integrations (signed out): the marketing page', () => {
  it('has the back-to-home link, Start Free Trial and Login, and no app shell', async () => {
    await open();
    expect(screen.getByRole('heading', { level: 1, name: 'Integrations' })).toBeInTheDocument();
    expect(hrefOf('Back to Home')).toBe('/');
    expect(hrefOf('Start Free Trial')).toBe('/register');
    expect(hrefOf('Login')).toBe('/login');
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
  });

  it('lists the 13 ESPs of the spec in its order and claims 15+ providers with one-click plugins', async () => {
    await open();
    const names = within(screen.getByTestId('marketing-esps'))
      .getAllByRole('listitem')
      .map((item) => item.querySelector('p')!.textContent);
    expect(names).toEqual([
      'SendGrid',
      'Mailchimp',
      'Klaviyo',
      'Mailgun',
      'SMTP2GO',
      'Constant Contact',
      'SparkPost',
      'ActiveCampaign',
      'HubSpot',
      'Brevo',
      'Omnisend',
      'Shopify Email',
      'GetResponse',
    ]);
    expect(screen.getByTestId('providers-claim')).toHaveTextContent('15+ providers with one-click plugins');
    expect(within(screen.getByTestId('marketing-esps')).getByRole('link', { name: 'SMTP2GO' })).toHaveAttribute(
      'href',
      '/integrations/smtp2go',
    );
  });

  it('links its cards to the API docs, the MTA guide and the alert capabilities, and every SDK button to the API docs', async () => {
    await open();
    const cards = screen.getAllByTestId('marketing-card');
    expect(cards.map((card) => within(card).getByRole('link').getAttribute('href'))).toEqual([
      '/api-docs',
      '/mta-integration',
      '/alert-capabilities',
    ]);
    const sdks = within(screen.getByTestId('sdk-buttons')).getAllByRole('link');
    expect(sdks.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Node.js', '/api-docs'],
      ['Python', '/api-docs'],
      ['PHP', '/api-docs'],
      ['Ruby', '/api-docs'],
    ]);
  });

  it('lists the supported MTAs', async () => {
    await open();
    const mtas = within(screen.getByTestId('marketing-mtas'))
      .getAllByRole('listitem')
      .map((item) => item.querySelector('p')!.textContent);
    expect(mtas).toEqual(['Postfix', 'PowerMTA', 'GreenArrow', 'Halon', 'KumoMTA', 'Postal']);
  });
});
