import { Inbox } from 'lucide-react';
import { CopyButton } from '../../../components/copy-button';
import { QueryState } from '../../../components/query-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { useDmarcIntake } from '../../../lib/queries/dmarc-intake';

function RuaInstruction({ domain }: { domain: string }) {
  const intake = useDmarcIntake(true);
  return (
    <QueryState
      query={intake}
      loading={
        <div role="status" className="space-y-1">
          <Skeleton className="h-8 w-full max-w-md" />
          <span className="sr-only">Loading the report address</span>
        </div>
      }
      errorMessage="Could not load the address reports should go to."
    >
      {({ reportAddress }) => <RuaTag domain={domain} reportAddress={reportAddress} />}
    </QueryState>
  );
}

function RuaTag({ domain, reportAddress }: { domain: string; reportAddress: string }) {
  const tag = `rua=mailto:${reportAddress}`;
  return (
    <div className="space-y-1" role="group" aria-label="Report address for your DMARC record">
      <p className="text-sm">
        Add this tag to the TXT record at <code className="font-mono">_dmarc.{domain}</code>:
      </p>
      <div className="flex max-w-full items-center gap-1 rounded bg-muted px-2 py-1">
        <code data-testid="rua-tag" className="min-w-0 wrap-anywhere font-mono text-xs">
          {tag}
        </code>
        <CopyButton value={tag} label="Copy rua tag" />
      </div>
      <p className="text-xs text-muted-foreground">
        Already sending reports elsewhere? Keep that address and add this one after a comma:{' '}
        <code className="wrap-anywhere font-mono">rua=mailto:you@example.net,mailto:{reportAddress}</code>
      </p>
    </div>
  );
}

/** No reports in the period: how to get reports flowing (rua= address) or in (upload a file). */
export function DmarcEmptyState({ domain, days, isVerified }: { domain: string; days: number; isVerified: boolean }) {
  return (
    <div data-testid="dmarc-empty" className="space-y-3 rounded-md border border-dashed p-4">
      <div className="flex items-start gap-3">
        <Inbox className="mt-0.5 size-6 shrink-0 text-muted-foreground" aria-hidden="true" />
        <div className="space-y-1">
          <p className="font-medium">
            No DMARC reports for {domain} in the last {days} days
          </p>
          <p className="text-sm text-muted-foreground">
            Mailbox providers such as Google, Microsoft and Yahoo send a daily aggregate report to the address in your
            DMARC record's rua= tag. It shows who sends mail as {domain} and whether it passes SPF and DKIM.
          </p>
        </div>
      </div>
      <RuaInstruction domain={domain} />
      {!isVerified && (
        <p className="text-sm text-yellow-800">
          Reports e-mailed to this address reach you once {domain} is verified: click Verify DNS above.
        </p>
      )}
      <p className="text-sm text-muted-foreground">
        Reports take a day or two to arrive. You can also upload a report file you already have (.xml, .xml.gz, .zip or
        .eml) with Upload DMARC report.
      </p>
    </div>
  );
}
