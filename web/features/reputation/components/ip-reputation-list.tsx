import { useState } from 'react';
import { ChartLine, ChevronDown, ChevronUp, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import type { IpAddress } from '@contracts/reputation';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { TONE_TEXT } from '../../../components/tone';
import { formatDateTime } from '../../../lib/format';
import { ipTimelinePath } from '../../../lib/paths';
import { cn } from '../../../lib/utils';
import { senderScoreTone } from '../status';
import { IpStatusBadge } from './ip-status-badge';
import { ListingTimeline } from './listing-timeline';
import { ScoreFactors } from './score-factors';

function IpRow({ ip, onDelete }: { ip: IpAddress; onDelete: () => void }) {
  const [open, setOpen] = useState(false);
  const tone = senderScoreTone(ip.senderScore);
  const detailsId = `ip-details-${ip.id}`;
  return (
    <li data-testid="ip-row" data-ip={ip.ipAddress} className="space-y-3 py-3">
      {/* One grid: columns from 768 px, stacked fields on a phone. */}
      <div className="grid grid-cols-2 items-center gap-x-3 gap-y-2 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto_auto_minmax(0,1.3fr)_auto]">
        <div className="col-span-2 min-w-0 md:col-span-1">
          <p className="font-mono font-medium wrap-anywhere">{ip.ipAddress}</p>
          <p className="text-sm text-muted-foreground wrap-anywhere">{ip.label || 'No label'}</p>
        </div>
        <p className="text-sm capitalize">{ip.type}</p>
        <div>
          <IpStatusBadge status={ip.status} />
        </div>
        <p data-testid="sender-score" data-tone={tone} className={cn('font-semibold', TONE_TEXT[tone])}>
          {ip.senderScore === null ? 'Not scored yet' : `${ip.senderScore}/100`}
        </p>
        <p className="text-sm text-muted-foreground">
          {ip.lastChecked ? `Checked ${formatDateTime(ip.lastChecked)}` : 'Not checked yet'}
        </p>
        <div className="col-span-2 flex gap-1 md:col-span-1 md:justify-end">
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={() => setOpen(!open)}
          >
            {open ? <ChevronUp aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
            {open ? 'Hide score' : 'Show score'}
            <span className="sr-only"> of {ip.ipAddress}</span>
          </Button>
          <Button asChild variant="ghost" size="sm">
            <Link to={ipTimelinePath(ip.id)}>
              <ChartLine aria-hidden="true" />
              Timeline
              <span className="sr-only"> of {ip.ipAddress}</span>
            </Link>
          </Button>
          <Button variant="ghost" size="sm" aria-label={`Delete ${ip.ipAddress}`} onClick={onDelete}>
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </div>
      {open && (
        <div id={detailsId} data-testid="ip-details" className="grid gap-4 rounded-md bg-muted/40 p-3 md:grid-cols-2">
          <section className="min-w-0 space-y-2">
            <h4 className="text-sm font-semibold">How the score is made</h4>
            <ScoreFactors factors={ip.scoreFactors} testId="ip-score-factors" />
            {ip.reverseDns !== null && (
              <p className="text-sm text-muted-foreground wrap-anywhere">
                Reverse DNS: {ip.reverseDns}{' '}
                {ip.reverseDnsConfirmed ? '(confirmed)' : '(does not resolve back to the address)'}
              </p>
            )}
          </section>
          <section className="min-w-0 space-y-2">
            <h4 className="text-sm font-semibold">Listing history</h4>
            <ListingTimeline target={{ ipAddressId: ip.id }} />
          </section>
        </div>
      )}
    </li>
  );
}

/** IP Address Reputation (part 2, section 2); sender score colours from section 9. */
export function IpReputationList({ ips, onDelete }: { ips: IpAddress[]; onDelete: (ip: IpAddress) => void }) {
  return (
    <Card data-testid="ip-reputation">
      <CardHeader>
        <CardTitle className="text-lg">IP Address Reputation</CardTitle>
        <CardDescription>
          Sender score 0-100: 90 or more is good, 70-89 needs watching, below 70 hurts delivery.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul aria-label="Monitored IP addresses" className="divide-y">
          {ips.map((ip) => (
            <IpRow key={ip.id} ip={ip} onDelete={() => onDelete(ip)} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
