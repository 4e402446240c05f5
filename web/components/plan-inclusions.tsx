import { Check, Minus } from 'lucide-react';

/** What a plan card lists: what the plan includes, ticked, then what it does not, each list named for screen readers. */
export function PlanInclusions({
  name,
  features,
  limitations,
}: {
  name: string;
  features: readonly string[];
  limitations: readonly string[];
}) {
  return (
    <>
      <ul className="mt-6 space-y-2.5 text-sm" aria-label={`${name} includes`}>
        {features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
            {feature}
          </li>
        ))}
      </ul>
      {limitations.length > 0 && (
        <ul className="mt-3 space-y-2.5 text-sm text-muted-foreground" aria-label={`${name} does not include`}>
          {limitations.map((limitation) => (
            <li key={limitation} className="flex gap-2">
              <Minus aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              {limitation}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
