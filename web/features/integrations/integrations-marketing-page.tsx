import { ArrowLeft, BellRing, Code2, Server } from 'lucide-react';
import { Link } from 'react-router';
import { ESP_INTEGRATIONS, MTA_INTEGRATIONS } from '@content/integrations';
import { Brand } from '../../components/brand';
import { PublicFooter } from '../../components/public-footer';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { PATHS } from '../../lib/paths';

/** Part 2, section 2: the 13 ESPs in the spec's order. */
export const MARKETING_ESP_IDS = [
  'sendgrid',
  'mailchimp',
  'klaviyo',
  'mailgun',
  'smtp2go',
  'constantcontact',
  'sparkpost',
  'activecampaign',
  'hubspot',
  'brevo',
  'omnisend',
  'shopifyemail',
  'getresponse',
] as const;

/** The claim as the spec writes it (the catalogue itself has 13 ESPs and Google Postmaster Tools). */
export const PROVIDERS_CLAIM = '15+ providers with one-click plugins';

export const SDK_LANGUAGES = ['Node.js', 'Python', 'PHP', 'Ruby'] as const;

const FEATURE_CARDS = [
  {
    title: 'REST API',
    text: 'Domains, email metrics, inbox tests, blacklist monitoring, DMARC reports, alerts and webhooks, with an API key.',
    to: PATHS.apiDocs,
    link: 'Read the API documentation',
    icon: Code2,
  },
  {
    title: 'MTA integration',
    text: 'Your own mail servers post their delivery results (delivered, bounced, deferred, complaints) to your endpoints as they happen.',
    to: PATHS.mtaIntegration,
    link: 'Read the MTA integration guide',
    icon: Server,
  },
  {
    title: 'Smart alerts',
    text: 'Bounce, complaint and delivery rates, blocklist listings and DNS failures, by e-mail, Slack, SMS or webhook.',
    to: PATHS.alertCapabilities,
    link: 'See the alert capabilities',
    icon: BellRing,
  },
] as const;

const LINK = 'font-medium text-primary underline-offset-4 hover:underline';

/** Integrations for a visitor (part 2, section 2): what connects, where to read more, and how to start. */
export default function IntegrationsMarketingPage() {
  const esps = MARKETING_ESP_IDS.map((id) => ESP_INTEGRATIONS.find((plugin) => plugin.id === id)!);
  return (
    <div className="flex min-h-screen flex-col" data-testid="integrations-marketing-page">
      <header className="border-b">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-4">
          <div className="flex items-center gap-3">
            <Brand />
          </div>
          <nav aria-label="Site" className="flex flex-wrap items-center gap-2 text-sm">
            <Button asChild variant="ghost" size="sm">
              <Link to={PATHS.home}>
                <ArrowLeft aria-hidden="true" />
                Back to Home
              </Link>
            </Button>
          </nav>
        </div>
      </header>

      <main className="flex-1">
        <section className="mx-auto max-w-6xl px-4 py-12 text-center sm:py-16">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Integrations</h1>
          <p className="mx-auto mt-4 max-w-2xl text-muted-foreground">
            Bring the sending figures of your email service providers, Gmail’s own view from Google Postmaster Tools and
            the delivery results of your own mail servers into one deliverability dashboard.
          </p>
          <p className="mt-6 text-xl font-semibold" data-testid="providers-claim">
            {PROVIDERS_CLAIM}
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Button asChild size="lg">
              <Link to={PATHS.register}>Start Free Trial</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to={PATHS.login}>Login</Link>
            </Button>
          </div>
        </section>

        <section aria-labelledby="esps-heading" className="bg-muted">
          <div className="mx-auto max-w-6xl px-4 py-12">
            <h2 id="esps-heading" className="text-2xl font-semibold tracking-tight">
              Email service providers
            </h2>
            <p className="mt-2 text-muted-foreground">
              Install a plugin with an API key: InboxPulse tests it with the provider, then syncs every hour.
            </p>
            <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" data-testid="marketing-esps">
              {esps.map((plugin) => (
                <li key={plugin.id} className="rounded-lg border bg-card p-3 shadow-sm">
                  <p className="font-semibold">
                    {plugin.id === 'smtp2go' ? (
                      <Link className={LINK} to={PATHS.smtp2goIntegration}>
                        {plugin.name}
                      </Link>
                    ) : (
                      plugin.name
                    )}
                  </p>
                  <p className="mt-1 hidden text-sm text-muted-foreground sm:block">{plugin.description}</p>
                </li>
              ))}
            </ul>
            <p className="mt-4 text-sm text-muted-foreground">
              And Google Postmaster Tools as an analytics source, connected by signing in with Google.
            </p>
          </div>
        </section>

        <section aria-labelledby="more-heading" className="mx-auto max-w-6xl px-4 py-12">
          <h2 id="more-heading" className="text-2xl font-semibold tracking-tight">
            Beyond plugins
          </h2>
          <div className="mt-6 grid gap-4 md:grid-cols-3">
            {FEATURE_CARDS.map(({ title, text, to, link, icon: Icon }) => (
              <Card key={title} data-testid="marketing-card">
                <CardHeader>
                  <CardTitle as="h3" className="flex items-center gap-2 text-lg">
                    <Icon className="size-5 text-primary" aria-hidden="true" />
                    {title}
                  </CardTitle>
                  <CardDescription>{text}</CardDescription>
                </CardHeader>
                <CardContent>
                  <Link className={LINK} to={to}>
                    {link}
                  </Link>
                </CardContent>
              </Card>
            ))}
          </div>
        </section>

        <section aria-labelledby="sdk-heading" className="mx-auto max-w-6xl px-4 pb-12">
          <h2 id="sdk-heading" className="text-2xl font-semibold tracking-tight">
            SDKs
          </h2>
          <p className="mt-2 text-muted-foreground">
            The API is plain HTTPS and JSON, so the HTTP client of any language works; the API documentation has
            complete examples.
          </p>
          <div className="mt-4 flex flex-wrap gap-2" data-testid="sdk-buttons">
            {SDK_LANGUAGES.map((language) => (
              <Button key={language} asChild variant="outline">
                <Link to={PATHS.apiDocs}>{language}</Link>
              </Button>
            ))}
          </div>
        </section>

        <section aria-labelledby="mtas-heading" className="bg-muted">
          <div className="mx-auto max-w-6xl px-4 py-12">
            <h2 id="mtas-heading" className="text-2xl font-semibold tracking-tight">
              Supported MTAs
            </h2>
            <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="marketing-mtas">
              {MTA_INTEGRATIONS.map((mta) => (
                <li key={mta.id} className="rounded-lg border bg-card p-3 shadow-sm">
                  <p className="font-semibold">{mta.name}</p>
                  <p className="mt-1 hidden text-sm text-muted-foreground sm:block">{mta.description}</p>
                </li>
              ))}
            </ul>
            <p className="mt-4 text-sm">
              <Link className={LINK} to={PATHS.postfixIntegration}>
                Postfix integration guide
              </Link>
            </p>
          </div>
        </section>
      </main>
      <PublicFooter />
    </div>
  );
}
