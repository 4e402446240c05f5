import { Link } from 'react-router';
import { Check, Minus } from 'lucide-react';
import { COMPANY } from '@content/company';
import { COMPARISON_ROWS, type ComparisonRow } from '@content/features';
import { PLANS, type PlanCard } from '@content/plans';
import { PlanInclusions } from '../../components/plan-inclusions';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/utils';
import { PATHS } from '../../lib/paths';
import { Section } from './section';

const salesMailto = `mailto:${COMPANY.salesEmail}`;

function Cell({ value }: { value: ComparisonRow['free'] }) {
  if (value === true)
    return (
      <>
        <Check aria-hidden="true" className="mx-auto size-5 text-success" />
        <span className="sr-only">Included</span>
      </>
    );
  if (value === false)
    return (
      <>
        <Minus aria-hidden="true" className="mx-auto size-5 text-muted-foreground/60" />
        <span className="sr-only">Not included</span>
      </>
    );
  return <span className="font-medium">{value}</span>;
}

export function ComparisonSection() {
  const planNames = PLANS.map((plan) => plan.name);
  return (
    <Section
      id="comparison"
      eyebrow="Compare"
      title="Feature comparison"
      description="See what each plan includes, side by side."
    >
      {/* A named region in the tab order, so keyboard users can scroll the table sideways on narrow screens. */}
      <div
        // The rule cannot tell a scroll container, whose tab stop is how a keyboard scrolls it; not
        // every browser gives one a stop by itself (Chrome and Firefox do, Safari does not). The
        // region's role and name say what the stop is; jsx-a11y's docs allow this case.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        role="region"
        aria-label="Feature comparison table"
        className="relative overflow-x-auto rounded-xl border bg-card shadow-sm"
      >
        <table className="w-full min-w-[36rem] text-sm">
          <caption className="sr-only">Features included in the Free, Professional and Custom Enterprise plans</caption>
          <thead>
            <tr className="border-b bg-muted/60">
              <th scope="col" className="px-4 py-3 text-left font-semibold">
                Feature
              </th>
              {planNames.map((name) => (
                <th key={name} scope="col" className="px-4 py-3 text-center font-semibold">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {COMPARISON_ROWS.map((row) => (
              <tr key={row.feature} className="border-b last:border-b-0">
                <th scope="row" className="px-4 py-3 text-left font-normal text-foreground">
                  {row.feature}
                </th>
                <td className="px-4 py-3 text-center whitespace-nowrap">
                  <Cell value={row.free} />
                </td>
                <td className="bg-accent/40 px-4 py-3 text-center whitespace-nowrap">
                  <Cell value={row.professional} />
                </td>
                <td className="px-4 py-3 text-center whitespace-nowrap">
                  <Cell value={row.enterprise} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

function PlanAction({ plan }: { plan: PlanCard }) {
  const className = 'mt-8 w-full';
  if (plan.id === 'free')
    return (
      <Button asChild variant="outline" className={className}>
        <Link to={PATHS.register}>Get Started</Link>
      </Button>
    );
  if (plan.id === 'professional')
    return (
      <Button asChild className={className}>
        <Link to={PATHS.pricing}>Subscribe</Link>
      </Button>
    );
  return (
    <Button asChild variant="outline" className={className}>
      <a href={salesMailto}>Contact Sales</a>
    </Button>
  );
}

export function PlansSection() {
  return (
    <Section
      id="plans"
      eyebrow="Plans"
      title="Simple, transparent pricing"
      description="Start free, upgrade when you need more. Paid plans come with a 30-day money-back guarantee."
      className="bg-muted"
    >
      <ul className="grid items-start gap-6 lg:grid-cols-3">
        {PLANS.map((plan) => (
          <li
            key={plan.id}
            aria-labelledby={`plan-${plan.id}`}
            className={cn(
              'relative flex flex-col rounded-2xl border bg-card p-6 shadow-sm sm:p-8',
              plan.popular && 'border-primary shadow-lg ring-1 ring-primary lg:-mt-4',
            )}
          >
            {plan.popular && (
              <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-primary px-3 py-1 text-xs font-semibold text-primary-foreground">
                Most Popular
              </p>
            )}
            <h3 id={`plan-${plan.id}`} className="text-xl font-semibold">
              {plan.name}
            </h3>
            <p className="mt-2 text-sm text-muted-foreground">{plan.description}</p>
            <p className="mt-6 flex items-baseline gap-2">
              <span className="text-4xl font-bold tracking-tight">{plan.priceLabel}</span>
              <span className="text-sm text-muted-foreground">{plan.pricePeriod}</span>
            </p>
            <PlanInclusions name={plan.name} features={plan.features} limitations={plan.limitations} />
            <PlanAction plan={plan} />
          </li>
        ))}
      </ul>
      <div className="mt-10 text-center">
        <Button asChild variant="link" size="lg">
          <Link to={PATHS.pricing}>View All Plans</Link>
        </Button>
      </div>
    </Section>
  );
}
