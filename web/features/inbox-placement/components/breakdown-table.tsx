import { TONE_TEXT } from '../../../components/tone';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { formatRate, inboxRateTone, spamRateTone } from '../../../lib/format';
import type { BreakdownRow } from '../placement';

/** Performance by one dimension (region, country or mailbox system). */
export function BreakdownTable({ title, dimension, rows }: { title: string; dimension: string; rows: BreakdownRow[] }) {
  const slug = dimension.toLowerCase().replace(/\s+/g, '-');
  return (
    <section className="min-w-0 space-y-2" aria-label={title} data-testid={`breakdown-${slug}`}>
      <h5 className="text-sm font-semibold">{title}</h5>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{dimension}</TableHead>
            <TableHead className="text-right">Inbox</TableHead>
            <TableHead className="text-right">Spam</TableHead>
            <TableHead className="text-right">Missing</TableHead>
            <TableHead className="text-right">Providers</TableHead>
            <TableHead className="text-right">Seeds</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.name} data-testid="breakdown-row">
              <TableCell className="font-medium">{row.name}</TableCell>
              <TableCell
                className={`text-right ${TONE_TEXT[inboxRateTone(row.rates.inbox)]}`}
                data-tone={inboxRateTone(row.rates.inbox)}
              >
                {formatRate(row.rates.inbox)}
              </TableCell>
              <TableCell
                className={`text-right ${TONE_TEXT[spamRateTone(row.rates.spam)]}`}
                data-tone={spamRateTone(row.rates.spam)}
              >
                {formatRate(row.rates.spam)}
              </TableCell>
              <TableCell className="text-right text-muted-foreground">{formatRate(row.rates.missing)}</TableCell>
              <TableCell className="text-right">{row.providers}</TableCell>
              <TableCell className="text-right">{row.seedsUsed}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  );
}
