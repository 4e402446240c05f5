import type { InboxTestResultRow } from '@contracts/inbox-tests';
import { Pill, type Tone } from '../../../components/ui/pill';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { providerStatus, type PlacementStatus } from '../placement';

const STATUS: Record<PlacementStatus, { label: string; tone: Tone }> = {
  inbox: { label: 'Inbox', tone: 'good' },
  spam: { label: 'Spam', tone: 'bad' },
  missing: { label: 'Missing', tone: 'none' },
  pending: { label: 'Pending', tone: 'warn' },
};

/** One row per provider (region, country): its derived status, counts and where the copies sat. */
export function ProviderResultsTable({ rows }: { rows: InboxTestResultRow[] }) {
  return (
    <section className="min-w-0 space-y-2" aria-label="Results by provider" data-testid="provider-results">
      <h5 className="text-sm font-semibold">Results by provider</h5>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Provider</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="text-right">Inbox / Spam / Missing</TableHead>
            <TableHead>Location</TableHead>
            <TableHead>Mailbox system</TableHead>
            <TableHead>Notes</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row, index) => {
            const status = STATUS[providerStatus(row)];
            return (
              <TableRow key={`${row.provider}-${row.region}-${row.country}-${index}`} data-testid="provider-row">
                <TableCell className="font-medium">{row.provider}</TableCell>
                <TableCell>
                  <Pill tone={status.tone}>{status.label}</Pill>
                </TableCell>
                <TableCell className="whitespace-nowrap text-right">
                  {row.inboxCount} / {row.spamCount} / {row.missingCount}
                  {row.pendingCount > 0 && (
                    <span className="block text-xs text-muted-foreground">{row.pendingCount} pending</span>
                  )}
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  {row.isAnalyser ? '–' : `${row.country}, ${row.region}`}
                </TableCell>
                <TableCell className="whitespace-nowrap">{row.mailboxSystem || '–'}</TableCell>
                <TableCell className="min-w-40 text-xs text-muted-foreground">
                  {row.notes.length > 0 ? row.notes.join('; ') : '–'}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </section>
  );
}
