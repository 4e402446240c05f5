import type { InboxTest } from '@contracts/inbox-tests';
import { CopyButton } from '../../../components/copy-button';
import { testSubject } from '../test-status';

function CopyField({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-2 gap-y-1 sm:grid-cols-[8rem_minmax(0,1fr)_auto]">
      <dt className="col-span-2 text-xs font-medium text-muted-foreground sm:col-span-1">{label}</dt>
      <dd className="min-w-0 break-all rounded bg-muted px-2 py-1 font-mono text-xs">{value}</dd>
      <dd>
        <CopyButton value={value} label={copyLabel} />
      </dd>
    </div>
  );
}

function SeedAddresses({ addresses }: { addresses: string[] }) {
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-xs font-medium text-muted-foreground">Seed addresses ({addresses.length})</h4>
        <CopyButton value={addresses.join(', ')} label="Copy all seed addresses">
          Copy all
        </CopyButton>
      </div>
      <ul aria-label="Seed addresses" className="grid gap-1 sm:grid-cols-2">
        {addresses.map((address) => (
          <li key={address} className="flex min-w-0 items-center gap-1 rounded bg-muted px-2 py-0.5">
            <span className="min-w-0 flex-1 break-all font-mono text-xs">{address}</span>
            <CopyButton value={address} label={`Copy seed address ${address}`} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * How to send the test message (part 2, section 2): the subject tag, the test address and the seed
 * addresses. The default subject "Inbox Test {id}" is what the list calls the test until the email
 * arrives, not a subject to send: said so, so the two subjects do not read as contradicting each other.
 */
export function TestInstructions({ test }: { test: InboxTest }) {
  return (
    <div
      className="space-y-3 rounded-md border bg-background p-3 text-sm"
      data-testid={`inbox-test-instructions-${test.id}`}
    >
      <p>
        Send your email to the test address{test.seedAddresses.length > 0 ? ' and to every seed address' : ''}. Put the
        test id in the subject as &quot;
        {test.subjectTag} Your Subject&quot;.
        {test.status === 'awaiting_email' && (
          <>
            {' '}
            Until your email arrives, the test is listed under its default subject, &quot;
            {testSubject({ id: test.id, subject: null })}&quot;.
          </>
        )}
      </p>
      <dl className="space-y-2">
        <CopyField label="Subject prefix" value={test.subjectTag} copyLabel="Copy subject prefix" />
        <CopyField label="Test address" value={test.testEmailAddress} copyLabel="Copy test address" />
      </dl>
      {test.seedAddresses.length > 0 && <SeedAddresses addresses={test.seedAddresses} />}
    </div>
  );
}
