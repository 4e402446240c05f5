import { useState } from 'react';
import { ChevronDown } from 'lucide-react';
import { FAQ } from '@content/faq';
import { cn } from '../../lib/utils';
import { Section } from './section';

/** The FAQ as a disclosure list: each question is a button that shows or hides its answer. */
export function FaqSection() {
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const toggle = (index: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });

  return (
    <Section id="faq" eyebrow="FAQ" title="Frequently asked questions">
      <div className="mx-auto max-w-3xl divide-y rounded-xl border bg-card shadow-sm">
        {FAQ.map((entry, index) => {
          const expanded = open.has(index);
          const buttonId = `faq-question-${index}`;
          const panelId = `faq-answer-${index}`;
          return (
            <div key={entry.question}>
              <h3>
                <button
                  id={buttonId}
                  type="button"
                  aria-expanded={expanded}
                  aria-controls={panelId}
                  onClick={() => toggle(index)}
                  className="flex w-full items-center justify-between gap-4 px-5 py-4 text-left font-medium hover:bg-muted/50 focus-visible:bg-muted/50 sm:px-6"
                >
                  {entry.question}
                  <ChevronDown
                    aria-hidden="true"
                    className={cn(
                      'size-5 shrink-0 text-muted-foreground transition-transform',
                      expanded && 'rotate-180',
                    )}
                  />
                </button>
              </h3>
              <div
                id={panelId}
                role="region"
                aria-labelledby={buttonId}
                hidden={!expanded}
                className="px-5 pb-5 text-sm leading-relaxed text-muted-foreground sm:px-6"
              >
                {entry.answer}
              </div>
            </div>
          );
        })}
      </div>
    </Section>
  );
}
