import { Link } from 'react-router';
import { COMPANY } from '@content/company';
import { Brand } from '../../components/brand';
import { PATHS } from '../../lib/paths';

const linkClass = 'rounded-sm text-sidebar-muted hover:text-white';

const COLUMNS: { title: string; links: { label: string; to: string }[] }[] = [
  {
    title: 'Product',
    links: [
      { label: 'Integrations', to: PATHS.integrations },
      { label: 'Pricing', to: PATHS.pricing },
      { label: 'Alert Capabilities', to: PATHS.alertCapabilities },
    ],
  },
  {
    title: 'Developers',
    links: [
      { label: 'API Documentation', to: PATHS.apiDocs },
      { label: 'Webhooks', to: PATHS.webhookDocs },
      { label: 'MTA Integration', to: PATHS.mtaIntegration },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Privacy Policy', to: PATHS.privacyPolicy },
      { label: 'Terms of Service', to: PATHS.termsOfService },
    ],
  },
];

/** Landing page footer with the legal entity and postal address (part 1, sections 1 and 2.2). */
export function LandingFooter() {
  return (
    <footer
      id="footer"
      aria-labelledby="footer-heading"
      data-testid="landing-footer"
      className="bg-sidebar text-sidebar-foreground"
    >
      <h2 id="footer-heading" className="sr-only">
        Footer
      </h2>
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <div className="grid gap-10 sm:grid-cols-2 lg:grid-cols-5">
          <div className="lg:col-span-2">
            <Brand tone="inverted" />
            <p className="mt-4 max-w-sm text-sm text-sidebar-muted">
              Email deliverability monitoring: inbox placement tests, authentication, reputation and blacklist
              monitoring, and alerts.
            </p>
            <ul className="mt-6 space-y-2 text-sm">
              <li>
                Support:{' '}
                <a href={`mailto:${COMPANY.supportEmail}`} className={linkClass}>
                  {COMPANY.supportEmail}
                </a>
              </li>
              <li>
                Sales:{' '}
                <a href={`mailto:${COMPANY.salesEmail}`} className={linkClass}>
                  {COMPANY.salesEmail}
                </a>
              </li>
            </ul>
          </div>
          {COLUMNS.map((column) => (
            <nav key={column.title} aria-label={column.title}>
              <h3 className="text-sm font-semibold text-white">{column.title}</h3>
              <ul className="mt-4 space-y-2 text-sm">
                {column.links.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to} className={linkClass}>
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="mt-12 flex flex-col gap-2 border-t border-white/10 pt-6 text-xs text-sidebar-muted sm:flex-row sm:justify-between">
          <p>
            © {new Date().getFullYear()} {COMPANY.legalEntity.replace(/\.$/, '')}. All rights reserved.
          </p>
          <address className="not-italic">
            {COMPANY.legalEntity}, {COMPANY.postalAddress}
          </address>
        </div>
      </div>
    </footer>
  );
}
