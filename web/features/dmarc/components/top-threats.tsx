import { ShieldAlert } from 'lucide-react';
import type { DmarcThreat } from '@contracts/dmarc';
import { SEVERITY, THREAT_TYPE_TEXT, plural } from '../dmarc-text';
import { Pill } from '../../../components/ui/pill';

const IPS_SHOWN = 5;

function ThreatItem({ threat }: { threat: DmarcThreat }) {
  const severity = SEVERITY[threat.severity];
  const moreIps = threat.sourceIPs.length - IPS_SHOWN;
  return (
    <li data-testid="dmarc-threat" className="space-y-1 rounded-md border p-3">
      <div className="flex flex-wrap items-center gap-2">
        <Pill tone={severity.tone}>{severity.label}</Pill>
        <span className="font-medium">{THREAT_TYPE_TEXT[threat.type]}</span>
        <span className="text-sm text-muted-foreground">{plural(threat.frequency, 'failed message')}</span>
      </div>
      <p className="wrap-anywhere font-mono text-xs">
        {threat.sourceIPs.slice(0, IPS_SHOWN).join(', ')}
        {moreIps > 0 && <span className="font-sans text-muted-foreground"> and {moreIps} more</span>}
      </p>
      <p className="text-sm">{threat.description}</p>
    </li>
  );
}

/** The sources whose mail failed DMARC, the worst first (as the server orders them). */
export function TopThreats({ threats }: { threats: DmarcThreat[] }) {
  if (threats.length === 0) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <ShieldAlert className="size-4" aria-hidden="true" />
        No failing sources in this period.
      </p>
    );
  }
  return (
    <ul aria-label="Top failing sources" className="space-y-2">
      {threats.map((threat) => (
        <ThreatItem key={threat.sourceIPs.join(',')} threat={threat} />
      ))}
    </ul>
  );
}
