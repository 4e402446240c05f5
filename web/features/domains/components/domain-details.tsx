import type { DomainChecks } from '@contracts/domains';
import { QueryState } from '../../../components/query-state';
import { Spinner } from '../../../components/ui/spinner';
import { useDomainDetail } from '../api';
import { formatDateTime } from '../../../lib/format';
import { BimiSection } from './bimi-section';
import { CheckSection } from './check-section';
import { DkimSection } from './dkim-section';
import { DmarcSection } from './dmarc-section';
import { SpfSection } from './spf-section';

function MxSection({ mx }: { mx: DomainChecks['mx'] }) {
  const hosts = [...mx.hosts].sort((a, b) => a.priority - b.priority);
  return (
    <CheckSection title="MX" check={mx} testId="check-mx" recordOptional>
      {hosts.length === 0 ? (
        <p className="text-xs text-muted-foreground">No MX hosts found</p>
      ) : (
        <ul aria-label="MX hosts" className="space-y-1 text-xs">
          {hosts.map((host) => (
            <li key={`${host.priority}-${host.exchange}`}>
              <span className="text-muted-foreground">Priority {host.priority}: </span>
              <span className="font-mono">{host.exchange}</span>
            </li>
          ))}
        </ul>
      )}
    </CheckSection>
  );
}

function ChecksView({ checks }: { checks: DomainChecks }) {
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <span>Last checked {formatDateTime(checks.checkedAt)}</span>
        <span>Ownership: {checks.ownershipVerified ? 'verified' : 'not verified yet'}</span>
        {!checks.resolves && <span className="text-red-700">The domain does not resolve in DNS.</span>}
      </div>
      {/* Columns of minmax(0, 1fr): a one-line key never widens its column past the page. */}
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
        <SpfSection spf={checks.spf} />
        <DkimSection dkim={checks.dkim} />
        <DmarcSection dmarc={checks.dmarc} />
        <MxSection mx={checks.mx} />
        <CheckSection title="MTA-STS" check={checks.mtaSts} testId="check-mta-sts" optional>
          {checks.mtaSts.policy && (
            <pre className="overflow-x-auto whitespace-pre-wrap break-all rounded bg-muted px-2 py-1 font-mono text-xs">
              {checks.mtaSts.policy}
            </pre>
          )}
        </CheckSection>
        <CheckSection title="TLS-RPT" check={checks.tlsRpt} testId="check-tls-rpt" optional />
        <BimiSection bimi={checks.bimi} />
      </div>
    </div>
  );
}

/** The results of a domain's last DNS check (GET /api/domains/:id), loaded when the panel opens. */
export function DomainDetails({ domainId, id }: { domainId: number; id?: string }) {
  const detail = useDomainDetail(domainId, true);

  return (
    <div id={id} data-testid="domain-details" aria-busy={detail.isFetching} className="space-y-2 border-t pt-4">
      <h3 className="text-sm font-semibold">DNS check results</h3>
      <QueryState
        query={detail}
        loading={
          <div className="flex justify-center py-4">
            <Spinner label="Loading DNS checks" />
          </div>
        }
        errorMessage="Could not load the DNS checks."
      >
        {({ checks }) =>
          checks ? (
            <ChecksView checks={checks} />
          ) : (
            <div className="space-y-1 text-sm">
              <p className="font-medium">Not checked yet</p>
              <p className="text-muted-foreground">
                Click Verify DNS to check SPF, DKIM, DMARC, MX, MTA-STS, TLS-RPT and BIMI now.
              </p>
            </div>
          )
        }
      </QueryState>
    </div>
  );
}
