import { z } from 'zod';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { formatDateTime } from '../../../lib/format';

/** The shape blocklist and reputation alerts keep (server/reputation/blocklist-alerts.ts; part 2, section 3). */
export const ListingMetadata = z.object({
  ipAddress: z.string().optional(),
  domain: z.string().optional(),
  checkedAt: z.string().optional(),
  providers: z.array(
    z.object({
      provider: z.string().optional(),
      hostname: z.string().optional(),
      description: z.string().nullish(),
      listed: z.boolean(),
      checkedAt: z.string().optional(),
    }),
  ),
  totalProviders: z.number().optional(),
  listedCount: z.number().optional(),
});
export type ListingMetadata = z.infer<typeof ListingMetadata>;

function Fact({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-medium wrap-anywhere" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function ListedWord({ listed }: { listed: boolean }) {
  return (
    <span className={listed ? 'shrink-0 font-semibold text-red-700' : 'shrink-0 text-green-700'}>
      {listed ? 'Listed' : 'Not listed'}
    </span>
  );
}

/** What a check found: the target, when, the counts, and every list's answer in a table. */
export function ListingMetadataView({ metadata }: { metadata: ListingMetadata }) {
  return (
    <div className="space-y-4" data-testid="listing-metadata">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {metadata.ipAddress && <Fact label="IP address" value={metadata.ipAddress} testId="meta-ip" />}
        {!metadata.ipAddress && metadata.domain && <Fact label="Domain" value={metadata.domain} testId="meta-domain" />}
        <Fact label="Checked" value={formatDateTime(metadata.checkedAt)} testId="meta-checked" />
        {metadata.totalProviders !== undefined && (
          <Fact label="Lists checked" value={String(metadata.totalProviders)} testId="meta-total" />
        )}
        {metadata.listedCount !== undefined && (
          <Fact label="Listed on" value={String(metadata.listedCount)} testId="meta-listed" />
        )}
      </dl>
      {metadata.providers.length > 0 && (
        <>
          {/* A phone gets one block per list: four columns at 390 px leave the answer a word per line. */}
          <ul className="space-y-2 sm:hidden" data-testid="provider-list">
            {metadata.providers.map((entry, index) => (
              <li key={`${entry.hostname ?? entry.provider ?? ''}-${index}`} className="rounded-md border p-3 text-sm">
                <div className="flex items-start justify-between gap-2">
                  <p className="min-w-0">
                    <span className="font-medium">{entry.provider ?? entry.hostname}</span>
                    {entry.provider && entry.hostname && (
                      <span className="block text-xs text-muted-foreground wrap-anywhere">{entry.hostname}</span>
                    )}
                  </p>
                  <ListedWord listed={entry.listed} />
                </div>
                {entry.description && <p className="mt-1 wrap-anywhere">{entry.description}</p>}
                <p className="mt-1 text-xs text-muted-foreground">Checked {formatDateTime(entry.checkedAt)}</p>
              </li>
            ))}
          </ul>
          <div className="hidden overflow-x-auto rounded-md border sm:block">
            <Table data-testid="provider-table">
              <TableHeader>
                <TableRow>
                  <TableHead>List</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Answer</TableHead>
                  <TableHead>Checked</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {metadata.providers.map((entry, index) => (
                  <TableRow
                    key={`${entry.hostname ?? entry.provider ?? ''}-${index}`}
                    data-testid="provider-row"
                    data-listed={entry.listed}
                  >
                    <TableCell className="align-top">
                      <span className="font-medium">{entry.provider ?? entry.hostname}</span>
                      {entry.provider && entry.hostname && (
                        <span className="block text-xs text-muted-foreground wrap-anywhere">{entry.hostname}</span>
                      )}
                    </TableCell>
                    <TableCell className="align-top">
                      <ListedWord listed={entry.listed} />
                    </TableCell>
                    <TableCell className="max-w-xs align-top text-sm wrap-anywhere">
                      {entry.description || '–'}
                    </TableCell>
                    <TableCell className="align-top text-sm whitespace-nowrap">
                      {formatDateTime(entry.checkedAt)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </>
      )}
    </div>
  );
}
