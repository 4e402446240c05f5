import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { PLAN_LIMITS } from '@contracts/plans';
import { renderApp, signedOut, stubFetch } from '../../test/test-utils';

beforeAll(async () => {
  await Promise.all([import('./terms-of-service-page'), import('./privacy-policy-page')]);
});

async function open(path: string, testId: string) {
  stubFetch(signedOut);
  renderApp(path);
  return within(await screen.findByTestId(testId));
}

function sectionTitles(page: ReturnType<typeof within>): (string | null)[] {
  return page.getAllByRole('heading', { level: 2 }).map((heading: HTMLElement) => heading.textContent);
}

describe('Terms of Service', () => {
  it('has its date, the 14 sections in order and Back to Home', async () => {
    const page = await open('/terms-of-service', 'terms-of-service-page');
    expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeInTheDocument();
    expect(page.getByTestId('last-updated')).toHaveTextContent('Last updated: December 7, 2024');
    expect(sectionTitles(page)).toEqual([
      '1. Acceptance of Terms',
      '2. Service Description',
      '3. Accounts',
      '4. Acceptable Use',
      '5. Plans and Billing',
      '6. Data and Privacy',
      '7. Intellectual Property',
      '8. Service Availability and Support',
      '9. Limitation of Liability',
      '10. Indemnification',
      '11. Termination',
      '12. Governing Law',
      '13. Changes to Terms',
      '14. Contact Information',
    ]);
    const backLinks = page.getAllByRole('link', { name: 'Back to Home' });
    expect(backLinks.length).toBeGreaterThan(0);
    for (const link of backLinks) expect(link).toHaveAttribute('href', '/');
    expect(page.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
  });

  it('states the figures of the terms as written: age, prices, billing, notice, liability cap and support levels', async () => {
    const page = await open('/terms-of-service', 'terms-of-service-page');
    const text = page.getByRole('main').textContent ?? '';
    expect(text).toContain('at least 18 years old');
    expect(text).toContain('consent of a parent or legal guardian');
    expect(text).toContain('Starter at $29/month, Professional at $99/month and Enterprise at $299/month');
    expect(text).toContain('billed monthly in advance');
    expect(text).toContain('non-refundable');
    expect(text).toContain('at least 30 days notice before a price change');
    expect(text).toContain('the amounts you paid us in the 12 months before');
    for (const level of [
      'Free: community support',
      'Starter: email support during business hours',
      'Professional: priority email and phone support',
      'Enterprise: dedicated support with an SLA',
    ])
      expect(text).toContain(level);
    expect(text).toContain('support@inboxpulse.com');
  });
});

describe('Privacy Policy', () => {
  it('has its date, the ten sections in order and Back to Home', async () => {
    const page = await open('/privacy-policy', 'privacy-policy-page');
    expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();
    expect(page.getByTestId('last-updated')).toHaveTextContent('Last updated: December 7, 2024');
    expect(sectionTitles(page)).toEqual([
      '1. Information We Collect',
      '2. How We Use Information',
      '3. How We Share Information',
      '4. Data Security',
      '5. Data Retention',
      '6. Your Rights',
      '7. International Data Transfers',
      '8. Cookies',
      '9. Changes to This Policy',
      '10. Contact Us',
    ]);
    for (const link of page.getAllByRole('link', { name: 'Back to Home' })) expect(link).toHaveAttribute('href', '/');
    expect(page.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms-of-service');
  });

  it('states the retention the server enforces for each plan', async () => {
    const page = await open('/privacy-policy', 'privacy-policy-page');
    const retention = within(page.getByRole('region', { name: '5. Data Retention' }));
    expect(retention.getByText(`Free: ${PLAN_LIMITS.free.retentionDays} days`)).toBeInTheDocument();
    expect(retention.getByText(`Professional: ${PLAN_LIMITS.professional.retentionDays} days`)).toBeInTheDocument();
  });
});
