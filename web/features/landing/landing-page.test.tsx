import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { COMPANY } from '@content/company';
import { FAQ } from '@content/faq';
import { ESP_INTEGRATIONS, MTA_INTEGRATIONS } from '@content/integrations';
import { LandingPage } from './landing-page';

const SECTIONS = [
  'hero',
  'features',
  'onboarding',
  'alerts',
  'integrations',
  'comparison',
  'plans',
  'sample-placement',
  'testimonials',
  'faq',
  'footer',
];

function renderLanding() {
  return render(
    <MemoryRouter>
      <LandingPage />
    </MemoryRouter>,
  );
}

const section = (id: string) => within(screen.getByTestId(`landing-${id}`));

/** Every link with this accessible name, and the hrefs they point to. */
function hrefs(name: string | RegExp, scope: Pick<typeof screen, 'getAllByRole'> = screen) {
  return scope.getAllByRole('link', { name }).map((link) => link.getAttribute('href'));
}

describe('LandingPage', () => {
  beforeEach(() => localStorage.clear());

  it('renders every section of part 1, 2.2 in order, each with an id and an accessible heading', () => {
    renderLanding();
    const found = Array.from(document.querySelectorAll('[data-testid^="landing-"]')).map((el) =>
      el.getAttribute('data-testid')?.replace('landing-', ''),
    );
    expect(found).toEqual(SECTIONS);
    for (const id of SECTIONS) {
      const root = screen.getByTestId(`landing-${id}`);
      expect(root).toHaveAttribute('id', id);
      const headingId = root.getAttribute('aria-labelledby');
      expect(headingId).toBeTruthy();
      const heading = document.getElementById(headingId as string);
      expect(heading?.tagName).toMatch(/^H[12]$/);
      expect(root).toContainElement(heading);
    }
    expect(screen.getByRole('heading', { level: 1, name: 'InboxPulse' })).toBeInTheDocument();
  });

  it('points every link of the spec where it says', () => {
    renderLanding();
    expect(hrefs('Integrations', within(screen.getByRole('banner')))).toEqual(['/integrations']);
    expect(new Set(hrefs('Integrations'))).toEqual(new Set(['/integrations']));
    expect(hrefs('View All Integrations')).toEqual(['/integrations']);
    expect(new Set(hrefs('Login'))).toEqual(new Set(['/login']));
    for (const name of ['Start Free Account', 'Start Free Trial', 'Get Started']) {
      expect(hrefs(name).length, name).toBeGreaterThan(0);
      expect(new Set(hrefs(name)), name).toEqual(new Set(['/register']));
    }
    for (const name of ['View Pricing', 'View All Plans', 'Subscribe']) {
      expect(hrefs(name).length, name).toBeGreaterThan(0);
      expect(new Set(hrefs(name)), name).toEqual(new Set(['/pricing']));
    }
    const footer = section('footer');
    expect(hrefs('Privacy Policy', footer)).toEqual(['/privacy-policy']);
    expect(hrefs('Terms of Service', footer)).toEqual(['/terms-of-service']);
    expect(hrefs(COMPANY.supportEmail, footer)).toEqual([`mailto:${COMPANY.supportEmail}`]);
    expect(hrefs(COMPANY.salesEmail, footer)).toEqual([`mailto:${COMPANY.salesEmail}`]);
    expect(hrefs('Contact Sales', section('plans'))).toEqual([`mailto:${COMPANY.salesEmail}`]);
  });

  it('places the CTAs in their sections', () => {
    renderLanding();
    expect(hrefs('Start Free Account', section('hero'))).toEqual(['/register']);
    expect(hrefs('View Pricing', section('hero'))).toEqual(['/pricing']);
    expect(hrefs('Login', section('hero'))).toEqual(['/login']);
    expect(hrefs('View All Integrations', section('integrations'))).toEqual(['/integrations']);
    expect(hrefs('Subscribe', section('plans'))).toEqual(['/pricing']);
    expect(hrefs('View All Plans', section('plans'))).toEqual(['/pricing']);
    expect(hrefs('Get Started', section('plans'))).toEqual(['/register']);
  });

  it('states 45+ providers on the page and keeps 25+ in the FAQ', () => {
    renderLanding();
    expect(screen.getByTestId('landing-hero')).toHaveTextContent('45+');
    expect(screen.getByTestId('landing-hero')).not.toHaveTextContent('25+');
    expect(FAQ.some((entry) => entry.answer.includes('25+'))).toBe(true);
  });

  it('lists the ESP and MTA integrations', () => {
    renderLanding();
    const integrations = section('integrations');
    for (const integration of [...ESP_INTEGRATIONS, ...MTA_INTEGRATIONS])
      expect(integrations.getByText(integration.name)).toBeInTheDocument();
  });

  it('lets a keyboard reach the comparison table to scroll it sideways: a named region in the tab order', () => {
    renderLanding();
    const region = section('comparison').getByRole('region', { name: 'Feature comparison table' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(within(region).getByRole('table')).toBeInTheDocument();
  });

  it('shows the three plan cards with the landing prices', () => {
    renderLanding();
    const plans = section('plans');
    for (const name of ['Free', 'Professional', 'Custom Enterprise'])
      expect(plans.getByRole('heading', { level: 3, name })).toBeInTheDocument();
    expect(plans.getByText('$0')).toBeInTheDocument();
    expect(plans.getByText('$49')).toBeInTheDocument();
  });

  it("labels the static placement panel as 'Sample results'", () => {
    renderLanding();
    const sample = section('sample-placement');
    expect(sample.getByText('Sample results')).toBeVisible();
    expect(sample.getByText('Gmail')).toBeInTheDocument();
    expect(sample.getByText(/45 seconds/)).toBeInTheDocument();
  });

  it('shows three testimonials with ratings and trust badges', () => {
    renderLanding();
    const testimonials = section('testimonials');
    expect(testimonials.getAllByRole('blockquote')).toHaveLength(3);
    expect(testimonials.getAllByRole('img', { name: /Rated \d out of 5/ })).toHaveLength(3);
    expect(testimonials.getByRole('list', { name: 'Why teams trust InboxPulse' })).toBeInTheDocument();
  });

  it('FAQ answers open and close as disclosures', async () => {
    renderLanding();
    const faq = section('faq');
    const first = faq.getByRole('button', { name: FAQ[0].question });
    expect(first).toHaveAttribute('aria-expanded', 'false');
    expect(faq.getByText(FAQ[0].answer)).not.toBeVisible();
    await userEvent.click(first);
    expect(first).toHaveAttribute('aria-expanded', 'true');
    expect(faq.getByText(FAQ[0].answer)).toBeVisible();
    await userEvent.click(first);
    expect(faq.getByText(FAQ[0].answer)).not.toBeVisible();
    expect(faq.getAllByRole('button')).toHaveLength(FAQ.length);
  });

  it('has the legal entity and postal address in the footer', () => {
    renderLanding();
    const footer = screen.getByTestId('landing-footer');
    expect(footer).toHaveTextContent(COMPANY.legalEntity);
    expect(footer).toHaveTextContent(COMPANY.postalAddress);
  });

  it('offers the section links and Integrations in a menu on narrow screens: a disclosure that closes on a link or Escape', async () => {
    renderLanding();
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Menu' });
    const menu = screen.getByTestId('site-menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAttribute('aria-controls', menu.id);
    expect(menu).not.toBeVisible();

    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(menu).toBeVisible();
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Features', '#features'],
      ['Plans', '#plans'],
      ['FAQ', '#faq'],
      ['Integrations', '/integrations'],
    ]);
    await user.click(within(menu).getByRole('link', { name: 'FAQ' }));
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(menu).not.toBeVisible();

    await user.click(button);
    await user.keyboard('{Escape}');
    expect(menu).not.toBeVisible();
    expect(button).toHaveFocus();
  });
});
