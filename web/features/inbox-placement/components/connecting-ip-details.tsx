import { ExternalLink } from 'lucide-react';
import type { InboxTestReport } from '@contracts/inbox-tests';
import { Pill, type Tone } from '../../../components/ui/pill';
import { AnalysisSection, Facts } from './analysis-parts';

type ConnectingIp = NonNullable<InboxTestReport['connectingIp']>;
type Envelope = InboxTestReport['envelope'];

const LISTING: Record<ConnectingIp['blocklists'][number]['status'], { label: string; tone: Tone }> = {
  listed: { label: 'Listed', tone: 'bad' },
  clear: { label: 'Clear', tone: 'good' },
  // A refused or failed query (part 2 design notes): never reported as listed.
  unknown: { label: 'Unknown', tone: 'none' },
};

function reverseDns(ip: ConnectingIp): string {
  if (ip.reverseDnsFailed) return 'Lookup failed';
  return ip.reverseDns.length > 0 ? ip.reverseDns.join(', ') : 'No PTR record';
}

/** How many lists this analysis asked (a subset of the monitored ones) and what they answered, from the answers themselves. */
function ListCount({ blocklists }: { blocklists: ConnectingIp['blocklists'] }) {
  const count = (status: ConnectingIp['blocklists'][number]['status']) =>
    blocklists.filter((entry) => entry.status === status).length;
  return (
    <p data-testid="connecting-ip-list-count" className="text-sm text-muted-foreground">
      {blocklists.length} IP lists asked for this message's connecting IP (the ones receivers most often block on):{' '}
      {count('listed')} listed, {count('clear')} clear, {count('unknown')} gave no answer.
    </p>
  );
}

/** The IP that handed the message over: reverse DNS, whether it is confirmed forward, and each blocklist's answer. */
export function ConnectingIpDetails({ connectingIp, envelope }: { connectingIp: ConnectingIp; envelope: Envelope }) {
  return (
    <AnalysisSection title="Connecting IP" testId="analysis-connecting-ip">
      <Facts
        items={[
          ['IP address', connectingIp.ip],
          ['Reverse DNS', reverseDns(connectingIp)],
          ['Confirmed name', connectingIp.confirmedName ?? 'Not confirmed (the name does not resolve back to this IP)'],
          ...(envelope
            ? ([
                ['HELO', envelope.helo],
                ['MAIL FROM', envelope.mailFrom || '<> (null sender)'],
              ] as Array<[string, string]>)
            : []),
        ]}
      />
      {connectingIp.blocklists.length > 0 && <ListCount blocklists={connectingIp.blocklists} />}
      {connectingIp.blocklists.length > 0 && (
        <ul aria-label="Blocklists" className="space-y-1 text-sm">
          {connectingIp.blocklists.map((entry) => {
            const listing = LISTING[entry.status];
            return (
              <li key={entry.zone} className="flex flex-wrap items-center gap-2 border-b py-1 last:border-0">
                <Pill tone={listing.tone}>{listing.label}</Pill>
                <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{entry.list}</span>
                <a
                  href={entry.lookupUrl}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center gap-1 text-xs text-primary underline-offset-4 hover:underline"
                  aria-label={`Look up ${connectingIp.ip} on ${entry.list}`}
                >
                  Look up
                  <ExternalLink className="size-3" aria-hidden="true" />
                </a>
                {entry.reason && (
                  <span className="w-full text-xs text-muted-foreground [overflow-wrap:anywhere]">{entry.reason}</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </AnalysisSection>
  );
}
