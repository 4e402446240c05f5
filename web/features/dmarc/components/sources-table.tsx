import { useState } from 'react';
import type { DmarcSource } from '@contracts/dmarc';
import { Button } from '../../../components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { formatCount } from '../../../lib/format';
import { DISPOSITIONS_NOTE, dispositionsText, shareText, sourceName } from '../dmarc-text';
import { SourceCoverage } from './source-coverage';

/** Shown before "Show all": enough to see the main senders without a page-long table. */
const FIRST_SOURCES = 10;
/** IPs listed per source; a big provider can send from hundreds. */
const IPS_SHOWN = 3;

function SourceIps({ ips }: { ips: string[] }) {
  const more = ips.length - IPS_SHOWN;
  return (
    <span className="font-mono text-xs">
      {ips.slice(0, IPS_SHOWN).join(', ')}
      {more > 0 && <span className="font-sans text-muted-foreground"> and {formatCount(more)} more</span>}
    </span>
  );
}

function SourceRow({ source }: { source: DmarcSource }) {
  const { name, detail } = sourceName(source);
  return (
    <TableRow data-testid="dmarc-source">
      <TableCell className="min-w-36 max-w-56">
        <div className={name ? 'font-medium wrap-anywhere' : 'text-muted-foreground'}>{name ?? 'Unknown sender'}</div>
        {detail && <div className="text-xs text-muted-foreground wrap-anywhere">{detail}</div>}
      </TableCell>
      <TableCell className="min-w-32">
        <SourceIps ips={source.ips} />
      </TableCell>
      <TableCell className="text-right tabular-nums">{formatCount(source.count)}</TableCell>
      <TableCell className="text-right tabular-nums">{shareText(source.spfAligned, source.count)}</TableCell>
      <TableCell className="text-right tabular-nums">{shareText(source.dkimAligned, source.count)}</TableCell>
      <TableCell
        className={source.failed > 0 ? 'text-right font-medium tabular-nums text-red-700' : 'text-right tabular-nums'}
      >
        {formatCount(source.failed)}
      </TableCell>
      <TableCell className="whitespace-nowrap text-xs">{dispositionsText(source.dispositions)}</TableCell>
      <TableCell className="min-w-64 max-w-96">
        <SourceCoverage source={source} />
      </TableCell>
    </TableRow>
  );
}

/** Who sends mail as the domain, and how much of it authenticates (aligned SPF or DKIM). */
export function SourcesTable({ sources }: { sources: DmarcSource[] }) {
  const [showAll, setShowAll] = useState(false);
  if (sources.length === 0) return <p className="text-sm text-muted-foreground">No sending sources in this period.</p>;
  const shown = showAll ? sources : sources.slice(0, FIRST_SOURCES);
  return (
    <div className="space-y-2">
      <Table aria-label="Sending sources" className="min-w-[60rem]">
        <TableHeader>
          <TableRow>
            <TableHead>Source</TableHead>
            <TableHead>IP addresses</TableHead>
            <TableHead className="text-right">Messages</TableHead>
            <TableHead className="text-right">SPF aligned</TableHead>
            <TableHead className="text-right">DKIM aligned</TableHead>
            <TableHead className="text-right">Failed</TableHead>
            <TableHead>Dispositions</TableHead>
            <TableHead>Your SPF and DKIM</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {shown.map((source) => (
            <SourceRow key={source.ips.join(',')} source={source} />
          ))}
        </TableBody>
      </Table>
      <p className="text-xs text-muted-foreground">{DISPOSITIONS_NOTE}</p>
      {sources.length > FIRST_SOURCES && (
        <Button variant="ghost" size="sm" aria-expanded={showAll} onClick={() => setShowAll((all) => !all)}>
          {showAll ? `Show the first ${FIRST_SOURCES} sources` : `Show all ${formatCount(sources.length)} sources`}
        </Button>
      )}
    </div>
  );
}
