import { Link } from 'react-router';
import { CLAIMS } from '@content/features';
import { Button } from '../../components/ui/button';
import { PATHS } from '../../lib/paths';

const STATS = [
  { value: CLAIMS.providersLanding, label: 'Mailbox providers' },
  { value: String(CLAIMS.regions), label: 'Global regions' },
  { value: `< ${CLAIMS.setupMinutes} min`, label: 'Setup time' },
  { value: String(CLAIMS.alertCategories), label: 'Alert categories' },
];

export function HeroSection() {
  return (
    <section
      id="hero"
      aria-labelledby="hero-heading"
      data-testid="landing-hero"
      className="relative overflow-hidden bg-linear-to-b from-accent via-background to-background"
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-40 left-1/2 size-[40rem] -translate-x-1/2 rounded-full bg-primary/10 blur-3xl"
      />
      {/* On a phone the actions must sit within the first screen, above the cookie banner: less air on top. */}
      <div className="relative mx-auto max-w-6xl px-4 pt-10 pb-16 text-center sm:px-6 sm:pt-24 sm:pb-20">
        <p className="inline-flex items-center rounded-full border border-primary/20 bg-background/70 px-3 py-1 text-sm font-medium text-primary">
          Email deliverability monitoring
        </p>
        <h1
          id="hero-heading"
          className="mt-6 text-5xl font-extrabold tracking-tight text-primary sm:text-6xl lg:text-7xl"
        >
          InboxPulse
        </h1>
        <p className="mx-auto mt-5 max-w-3xl text-2xl font-semibold tracking-tight text-balance sm:text-3xl lg:text-4xl">
          Know where your email lands, before your customers notice
        </p>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-muted-foreground">
          Test inbox placement across {CLAIMS.providersLanding} mailbox providers in {CLAIMS.regions} regions, monitor
          SPF, DKIM and DMARC, watch your sender reputation and blacklists, and get alerted the moment something
          changes.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3 sm:mt-10">
          <Button asChild size="lg">
            <Link to={PATHS.register}>Start Free Account</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to={PATHS.pricing}>View Pricing</Link>
          </Button>
        </div>
        <p className="mt-4 text-sm text-muted-foreground">
          Already have an account?{' '}
          <Link to={PATHS.login} className="font-medium text-primary underline-offset-4 hover:underline">
            Login
          </Link>
        </p>
        <p className="mt-2 text-sm text-muted-foreground">
          Free forever · No credit card required · Setup in under {CLAIMS.setupMinutes} minutes
        </p>
        <dl className="mx-auto mt-14 grid max-w-4xl grid-cols-2 gap-4 sm:grid-cols-4">
          {STATS.map((stat) => (
            <div key={stat.label} className="flex flex-col gap-1 rounded-xl border bg-card/80 px-4 py-5 shadow-sm">
              <dt className="text-sm text-muted-foreground">{stat.label}</dt>
              <dd className="order-first text-2xl font-bold tracking-tight text-foreground sm:text-3xl">
                {stat.value}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
