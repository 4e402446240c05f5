import { useState } from 'react';
import { listedCountWords, type IpAddress } from '@contracts/reputation';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Pill } from '../../../components/ui/pill';
import { formatDateTime } from '../../../lib/format';
import { blacklistLabel, blacklistTone } from '../blacklist-status';
import { ListAnswers } from './list-answers';

/** One IP's card: its badge from the count of lists, "listed on N of M" and View/Hide Details (part 2, sections 2 and 4). */
export function IpBlacklistCard({ ip }: { ip: IpAddress }) {
  const [open, setOpen] = useState(false);
  const checked = ip.lastChecked !== null;
  const detailsId = `blacklist-details-${ip.id}`;
  return (
    <Card data-testid="blacklist-ip-card" data-ip={ip.ipAddress} className="space-y-3 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-mono font-semibold wrap-anywhere">{ip.ipAddress}</h3>
          <p className="text-sm text-muted-foreground wrap-anywhere">{ip.label || 'No label'}</p>
        </div>
        {/* Never checked: counting zero lists is no reason to say Clean. */}
        <Pill tone={checked ? blacklistTone(ip.blacklistCount) : 'none'} testId="blacklist-badge">
          {checked ? blacklistLabel(ip.blacklistCount) : 'Checking'}
        </Pill>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <p data-testid="listed-count">
          {checked
            ? `Listed on ${listedCountWords(ip.blacklistCount, ip.totalProviders, ip.reputationDetails, 'IP lists asked for this address')}`
            : 'Not checked yet'}
          {checked && <span className="text-muted-foreground"> · checked {formatDateTime(ip.lastChecked)}</span>}
        </p>
        <Button
          variant="outline"
          size="sm"
          aria-expanded={open}
          aria-controls={detailsId}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide Details' : 'View Details'}
        </Button>
      </div>
      {open && (
        <div id={detailsId}>
          <ListAnswers details={ip.reputationDetails} target={ip.ipAddress} />
        </div>
      )}
    </Card>
  );
}
