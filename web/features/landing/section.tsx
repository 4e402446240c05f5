import type { ReactNode } from 'react';
import { cn } from '../../lib/utils';

interface SectionProps {
  /** Anchor id; also names the browser-test id `landing-<id>`. */
  id: string;
  eyebrow?: string;
  title: string;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** One landing page section: an anchor, an accessible h2 heading and a centred container. */
export function Section({ id, eyebrow, title, description, className, children }: SectionProps) {
  const headingId = `${id}-heading`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      data-testid={`landing-${id}`}
      className={cn('scroll-mt-20 py-16 sm:py-24', className)}
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          {eyebrow && <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>}
          <h2 id={headingId} className="mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            {title}
          </h2>
          {description && <p className="mt-4 text-lg text-pretty text-muted-foreground">{description}</p>}
        </div>
        <div className="mt-12">{children}</div>
      </div>
    </section>
  );
}
