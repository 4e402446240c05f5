import { useId, useState } from 'react';
import { Clock } from 'lucide-react';
import type { Domain } from '@contracts/domains';
import { Label } from '../../../components/ui/label';
import {
  DEFAULT_DMARC_POLICY,
  DMARC_POLICIES,
  DMARC_POLICY_TEXT,
  suggestedRecords,
  type DmarcPolicy,
  type SuggestedRecord,
} from '../records';
import { CopyButton } from '../../../components/copy-button';
import { QueryState } from '../../../components/query-state';
import { useDmarcIntake } from '../../../lib/queries/dmarc-intake';

function RecordField({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <div className="grid grid-cols-[4rem_1fr_auto] items-center gap-2">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-all rounded bg-muted px-2 py-1 font-mono text-xs">{value}</dd>
      <dd>
        <CopyButton value={value} label={copyLabel} />
      </dd>
    </div>
  );
}

function RecordBlock({ record, children }: { record: SuggestedRecord; children?: React.ReactNode }) {
  const titleId = useId();
  return (
    <section role="group" aria-labelledby={titleId} data-record={record.id} className="space-y-2 rounded-md border p-3">
      <h4 id={titleId} className="text-sm font-semibold">
        {record.title}
      </h4>
      {children}
      <dl className="space-y-1">
        <div className="grid grid-cols-[4rem_1fr_auto] items-center gap-2">
          <dt className="text-xs font-medium text-muted-foreground">Type</dt>
          <dd className="font-mono text-xs">{record.type}</dd>
        </div>
        <RecordField label="Name" value={record.name} copyLabel="Copy record name" />
        <RecordField label="Value" value={record.value} copyLabel="Copy record value" />
      </dl>
      {record.altName.value !== record.name && (
        <p className="text-xs text-muted-foreground">
          {record.altName.label}: <code className="font-mono">{record.altName.value}</code>
        </p>
      )}
      <p className="text-xs text-muted-foreground">{record.note}</p>
    </section>
  );
}

/** Part 2, section 2: what an unverified domain should publish, with copy buttons. */
export function DnsSetupInstructions({ domain }: { domain: Domain }) {
  const [policy, setPolicy] = useState<DmarcPolicy>(DEFAULT_DMARC_POLICY);
  const selectId = useId();
  // The report address comes from the server, the same one the DMARC panel shows.
  const intake = useDmarcIntake();
  const records = suggestedRecords(
    domain.domain,
    domain.verificationRecord,
    policy,
    intake.data?.reportAddress ?? null,
  );
  return (
    <div data-testid="dns-setup" className="space-y-3">
      <div>
        <h3 className="text-sm font-semibold">DNS setup instructions</h3>
        <p className="text-sm text-muted-foreground">
          Publish these records at your DNS provider for {domain.domain}, then click Verify DNS.
        </p>
      </div>
      <div className="grid gap-3 lg:grid-cols-2">
        {records.map((record) => (
          <RecordBlock key={record.id} record={record}>
            {record.id === 'dmarc' && (
              <div className="flex flex-wrap items-center gap-2">
                <Label htmlFor={selectId} className="text-xs">
                  DMARC policy
                </Label>
                <select
                  id={selectId}
                  value={policy}
                  onChange={(event) => setPolicy(event.target.value as DmarcPolicy)}
                  className="h-8 rounded-md border border-input bg-background px-2 text-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  {DMARC_POLICIES.map((option) => (
                    <option key={option} value={option}>
                      {DMARC_POLICY_TEXT[option]}
                    </option>
                  ))}
                </select>
                {/* Only the waiting and the failure are said here: the address itself is in the record above. */}
                <QueryState
                  query={intake}
                  loading={
                    <span role="status" className="text-xs text-muted-foreground">
                      Loading the report address for rua=...
                    </span>
                  }
                  failed={() => (
                    <span role="alert" className="text-xs text-red-700">
                      Could not load the InboxPulse report address for rua=: reload the page to add it to this record.
                    </span>
                  )}
                >
                  {() => null}
                </QueryState>
              </div>
            )}
          </RecordBlock>
        ))}
      </div>
      <p className="flex items-center gap-2 text-xs text-muted-foreground" data-testid="dns-propagation-hint">
        <Clock className="size-3.5 shrink-0" aria-hidden="true" />
        DNS propagation takes 5-15 minutes. If a check still fails right after you publish a record, wait and verify
        again.
      </p>
    </div>
  );
}
