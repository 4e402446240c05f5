import { Info } from 'lucide-react';

/** The "How it works" box (part 2, section 2). */
export function HowItWorks() {
  return (
    <section
      aria-labelledby="how-it-works-title"
      className="rounded-lg border border-blue-200 bg-blue-50 p-4 text-sm text-blue-950"
    >
      <h2 id="how-it-works-title" className="mb-2 flex items-center gap-2 font-semibold">
        <Info className="size-4 shrink-0" aria-hidden="true" />
        How it works
      </h2>
      <ol className="list-decimal space-y-1 pl-5">
        <li>
          Create a test. You get a test address, a test id and, when a seed network is configured, a list of seed
          addresses.
        </li>
        <li>
          Send one real email from your usual sending platform to the test address and to every seed address, with the
          test id in the subject as
          {' "[TEST-{id}] Your Subject"'}.
        </li>
        <li>
          We find the message in each seed mailbox and analyse it: authentication, the connecting IP and its blocklists,
          content and spam filters.
        </li>
        <li>
          Open the results to see where it landed by provider, region, country and mailbox system, with a score and what
          to fix.
        </li>
      </ol>
    </section>
  );
}
