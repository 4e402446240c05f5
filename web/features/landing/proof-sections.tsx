import { Check, Star } from 'lucide-react';
import { CLAIMS } from '@content/features';
import { SAMPLE_PLACEMENT, SAMPLE_PLACEMENT_LABEL } from '@content/sample-placement';
import { TESTIMONIALS, TRUST_BADGES } from '@content/testimonials';
import { cn } from '../../lib/utils';
import { Section } from './section';

function barColour(percent: number): string {
  if (percent >= 90) return 'bg-emerald-500';
  if (percent >= 80) return 'bg-amber-500';
  return 'bg-rose-500';
}

/**
 * The static sample inbox placement panel (part 1, section 2.2). A marketing illustration, labelled
 * 'Sample results' so nobody mistakes it for their own data.
 */
export function SamplePlacementSection() {
  const average = Math.round(
    SAMPLE_PLACEMENT.reduce((sum, row) => sum + row.inboxPercent, 0) / SAMPLE_PLACEMENT.length,
  );
  return (
    <Section
      id="sample-placement"
      eyebrow="Inbox placement"
      title="See exactly where your email lands"
      description="Every test reports inbox, spam and missing rates per provider, region, country and mailbox system."
    >
      <figure className="mx-auto max-w-3xl rounded-2xl border bg-card shadow-lg">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b px-5 py-4 sm:px-6">
          <div>
            <p className="font-semibold">Inbox placement test</p>
            <p className="text-sm text-muted-foreground">Test completed in {CLAIMS.sampleTestSeconds} seconds</p>
          </div>
          <span className="rounded-full border border-amber-300 bg-amber-50 px-3 py-1 text-xs font-semibold text-amber-800">
            {SAMPLE_PLACEMENT_LABEL}
          </span>
        </div>
        <table className="w-full text-sm">
          <caption className="sr-only">
            {SAMPLE_PLACEMENT_LABEL}: inbox placement by provider and region (example data)
          </caption>
          <thead>
            <tr className="text-left text-xs text-muted-foreground uppercase">
              <th scope="col" className="px-5 pt-4 pb-2 font-medium sm:px-6">
                Provider
              </th>
              <th scope="col" className="hidden px-2 pt-4 pb-2 font-medium sm:table-cell">
                Region
              </th>
              <th scope="col" className="px-5 pt-4 pb-2 text-right font-medium sm:px-6">
                Inbox
              </th>
            </tr>
          </thead>
          <tbody>
            {SAMPLE_PLACEMENT.map((row) => (
              <tr key={row.provider} className="border-t">
                <th scope="row" className="px-5 py-3 text-left font-medium sm:px-6">
                  {row.provider}
                  <span className="block text-xs font-normal text-muted-foreground sm:hidden">{row.region}</span>
                </th>
                <td className="hidden px-2 py-3 text-muted-foreground sm:table-cell">{row.region}</td>
                <td className="px-5 py-3 sm:px-6">
                  <div className="flex items-center justify-end gap-3">
                    <span
                      aria-hidden="true"
                      className="hidden h-2 w-24 overflow-hidden rounded-full bg-muted min-[420px]:block sm:w-40"
                    >
                      <span
                        className={cn('block h-full rounded-full', barColour(row.inboxPercent))}
                        style={{ width: `${row.inboxPercent}%` }}
                      />
                    </span>
                    <span className="w-10 text-right font-semibold tabular-nums">{row.inboxPercent}%</span>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <figcaption className="flex flex-wrap items-center justify-between gap-2 border-t bg-muted/50 px-5 py-4 text-sm sm:px-6">
          <span className="text-muted-foreground">Example data for illustration, not your results.</span>
          <span className="font-semibold">Average inbox placement: {average}%</span>
        </figcaption>
      </figure>
    </Section>
  );
}

function Stars({ rating }: { rating: number }) {
  return (
    <p className="flex gap-0.5" aria-label={`Rated ${rating} out of 5`} role="img">
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          aria-hidden="true"
          className={cn('size-4', n <= rating ? 'fill-amber-400 text-amber-400' : 'text-muted-foreground/40')}
        />
      ))}
    </p>
  );
}

export function TestimonialsSection() {
  return (
    <Section
      id="testimonials"
      eyebrow="Testimonials"
      title="Trusted by senders who care about the inbox"
      className="bg-muted"
    >
      <ul className="grid gap-6 md:grid-cols-3">
        {TESTIMONIALS.map((testimonial) => (
          <li key={testimonial.name} className="flex">
            <figure className="flex flex-1 flex-col rounded-xl border bg-card p-6 shadow-sm">
              <Stars rating={testimonial.rating} />
              <blockquote className="mt-4 flex-1 text-sm leading-relaxed">“{testimonial.content}”</blockquote>
              <figcaption className="mt-6 border-t pt-4 text-sm">
                <p className="font-semibold">{testimonial.name}</p>
                <p className="text-muted-foreground">
                  {testimonial.title}, {testimonial.company}
                </p>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
      <ul aria-label="Why teams trust InboxPulse" className="mt-10 flex flex-wrap justify-center gap-3">
        {TRUST_BADGES.map((badge) => (
          <li
            key={badge.id}
            className="inline-flex items-center gap-2 rounded-full border bg-card px-4 py-2 text-sm font-medium shadow-sm"
          >
            <Check aria-hidden="true" className="size-4 text-success" />
            {badge.label}
          </li>
        ))}
      </ul>
    </Section>
  );
}
