import { Link } from 'react-router';
import {
  Bell,
  CodeXml,
  Gauge,
  Hash,
  Inbox,
  Mail,
  Plug,
  ShieldAlert,
  ShieldCheck,
  Smartphone,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import {
  ALERT_CATEGORY_GROUPS,
  ALERT_CHANNELS,
  CLAIMS,
  FEATURES,
  ONBOARDING_STEPS,
  type AlertChannel,
} from '@content/features';
import { ESP_INTEGRATIONS, MTA_INTEGRATIONS } from '@content/integrations';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/utils';
import { PATHS } from '../../lib/paths';
import { Section } from './section';

const FEATURE_ICONS: Record<string, LucideIcon> = {
  'inbox-placement': Inbox,
  authentication: ShieldCheck,
  'health-scoring': Gauge,
  reputation: ShieldAlert,
  alerts: Bell,
  integrations: Plug,
  api: CodeXml,
};

export function FeaturesSection() {
  return (
    <Section
      id="features"
      eyebrow="Features"
      title="Everything you need to reach the inbox"
      description="One place to test, authenticate, monitor and fix your email deliverability."
    >
      {/* Seven cards: the first spans two columns so both the 2- and the 4-column grids fill up evenly. */}
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {FEATURES.map((feature, index) => {
          const FeatureIcon = FEATURE_ICONS[feature.id] ?? Inbox;
          return (
            <li
              key={feature.id}
              className={cn(
                'rounded-xl border bg-card p-6 shadow-sm transition-shadow hover:shadow-md',
                index === 0 && 'bg-linear-to-br from-accent to-card sm:col-span-2',
              )}
            >
              <span className="inline-flex size-11 items-center justify-center rounded-lg bg-accent text-primary">
                <FeatureIcon aria-hidden="true" className="size-5" />
              </span>
              <h3 className="mt-4 text-lg font-semibold">{feature.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{feature.description}</p>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}

export function OnboardingSection() {
  return (
    <Section
      id="onboarding"
      eyebrow="Get started"
      title="Up and running in three steps"
      description={`Most teams finish setup in under ${CLAIMS.setupMinutes} minutes.`}
      className="bg-muted"
    >
      <ol className="grid gap-6 md:grid-cols-3">
        {ONBOARDING_STEPS.map((step) => (
          <li key={step.step} className="relative rounded-xl border bg-card p-6 shadow-sm">
            <span
              aria-hidden="true"
              className="inline-flex size-10 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-foreground"
            >
              {step.step}
            </span>
            <h3 className="mt-4 text-lg font-semibold">
              <span className="sr-only">Step {step.step}: </span>
              {step.title}
            </h3>
            <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{step.description}</p>
          </li>
        ))}
      </ol>
      <div className="mt-10 text-center">
        <Button asChild size="lg">
          <Link to={PATHS.register}>Start Free Trial</Link>
        </Button>
      </div>
    </Section>
  );
}

const CHANNEL_ICONS: Record<AlertChannel['id'], LucideIcon> = {
  email: Mail,
  slack: Hash,
  sms: Smartphone,
  webhook: Webhook,
};

export function AlertsSection() {
  return (
    <Section
      id="alerts"
      eyebrow="Multi-channel alerts"
      title="Hear about problems wherever your team works"
      description={`Alerts in ${CLAIMS.alertCategories} categories, from authentication failures to blacklist listings, delivered immediately or as a summary.`}
    >
      <div className="grid gap-8 lg:grid-cols-2">
        <div>
          <h3 className="text-lg font-semibold">Alert categories</h3>
          <ul className="mt-4 space-y-4">
            {ALERT_CATEGORY_GROUPS.map((group) => (
              <li key={group.id} className="rounded-xl border bg-card p-5 shadow-sm">
                <p className="font-semibold">{group.name}</p>
                <ul className="mt-3 flex flex-wrap gap-2" aria-label={`${group.name} alert examples`}>
                  {group.examples.map((example) => (
                    <li
                      key={example}
                      className="rounded-full bg-muted px-3 py-1 text-xs font-medium text-muted-foreground"
                    >
                      {example}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h3 className="text-lg font-semibold">Delivery channels</h3>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2">
            {ALERT_CHANNELS.map((channel) => {
              const ChannelIcon = CHANNEL_ICONS[channel.id];
              return (
                <li key={channel.id} className="rounded-xl border bg-card p-5 shadow-sm">
                  <div className="flex items-center justify-between gap-2">
                    <span className="inline-flex size-10 items-center justify-center rounded-lg bg-accent text-primary">
                      <ChannelIcon aria-hidden="true" className="size-5" />
                    </span>
                    <span className="rounded-full border px-2.5 py-0.5 text-xs font-medium text-muted-foreground">
                      {channel.plan === 'Free' ? 'All plans' : 'Professional'}
                    </span>
                  </div>
                  <p className="mt-3 font-semibold">{channel.name}</p>
                  <p className="mt-1 text-sm text-muted-foreground">{channel.description}</p>
                </li>
              );
            })}
          </ul>
        </div>
      </div>
    </Section>
  );
}

const AVATAR_COLOURS = [
  'bg-blue-600',
  'bg-emerald-600',
  'bg-violet-600',
  'bg-amber-600',
  'bg-rose-600',
  'bg-cyan-700',
  'bg-indigo-600',
];

function Avatar({ name, index }: { name: string; index: number }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-flex size-9 shrink-0 items-center sm:size-10 justify-center rounded-lg text-sm font-bold text-white ${AVATAR_COLOURS[index % AVATAR_COLOURS.length]}`}
    >
      {name.slice(0, 2)}
    </span>
  );
}

export function IntegrationsSection() {
  return (
    <Section
      id="integrations"
      eyebrow="Integrations"
      title="Works with the way you already send"
      description="Connect your email service provider with an API key, add Google Postmaster Tools data, or stream events from your own MTA through webhooks."
      className="bg-muted"
    >
      <h3 className="text-lg font-semibold">Email service providers &amp; analytics</h3>
      <ul className="mt-4 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 xl:grid-cols-4">
        {ESP_INTEGRATIONS.map((integration, index) => (
          <li
            key={integration.id}
            className="flex flex-col items-start gap-2 rounded-xl border bg-card p-3 shadow-sm sm:flex-row sm:gap-3 sm:p-4"
          >
            <Avatar name={integration.name} index={index} />
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm font-semibold break-words sm:text-base">
                {integration.name}
                {integration.category === 'analytics' && (
                  <span className="rounded-full bg-accent px-2 py-0.5 text-xs font-medium text-accent-foreground">
                    Analytics
                  </span>
                )}
              </p>
              <p className="mt-1 hidden text-sm text-muted-foreground sm:block">{integration.description}</p>
            </div>
          </li>
        ))}
      </ul>

      <h3 className="mt-12 text-lg font-semibold">Mail transfer agents</h3>
      <p className="mt-1 text-sm text-muted-foreground">Send delivery events from your own servers through webhooks.</p>
      <ul className="mt-4 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
        {MTA_INTEGRATIONS.map((mta, index) => (
          <li
            key={mta.id}
            className="flex flex-col items-start gap-2 rounded-xl border bg-card p-3 shadow-sm sm:flex-row sm:gap-3 sm:p-4"
          >
            <Avatar name={mta.name} index={index + 3} />
            <div className="min-w-0">
              <p className="text-sm font-semibold sm:text-base">{mta.name}</p>
              <p className="mt-1 hidden text-sm text-muted-foreground sm:block">{mta.description}</p>
            </div>
          </li>
        ))}
      </ul>

      <div className="mt-10 text-center">
        <Button asChild size="lg" variant="outline" className="bg-background">
          <Link to={PATHS.integrations}>View All Integrations</Link>
        </Button>
      </div>
    </Section>
  );
}
