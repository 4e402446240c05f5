import { useId, type ReactNode } from 'react';
import { AlertCircle, Info, TriangleAlert } from 'lucide-react';
import type { DomainChecks, Finding, SpfNode } from '@contracts/domains';
import { QueryState } from '../../../components/query-state';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/utils';
import { useDomainDetail } from '../api';
import { Pill } from '../../../components/ui/pill';
import { formatDateTime } from '../../../lib/format';
import { CheckStatusBadge } from './domain-status-badge';
import { CopyButton } from '../../../components/copy-button';
import { LongValue } from '../../../components/long-value';

/** RFC 7208, section 4.6.4: at most 10 DNS-querying terms, and at most 2 of them may find nothing. */
export const SPF_LOOKUP_LIMIT = 10;
export const SPF_VOID_LOOKUP_LIMIT = 2;

const SEVERITY = {
  error: { label: 'Error', icon: AlertCircle, className: 'text-red-700' },
  warning: { label: 'Warning', icon: TriangleAlert, className: 'text-yellow-700' },
  info: { label: 'Note', icon: Info, className: 'text-sky-700' },
} as const;

function Findings({ findings, okText }: { findings: Finding[]; okText?: string }) {
  if (findings.length === 0) return okText ? <p className="text-xs text-muted-foreground">{okText}</p> : null;
  return (
    <ul className="space-y-2" aria-label="Findings">
      {findings.map((finding, index) => {
        const severity = SEVERITY[finding.severity];
        const Icon = severity.icon;
        return (
          <li key={index} data-testid="finding" data-severity={finding.severity} className="flex gap-2 text-sm">
            <Icon className={cn('mt-0.5 size-4 shrink-0', severity.className)} aria-hidden="true" />
            <div className="min-w-0 space-y-1 wrap-anywhere">
              <p>
                <span className={cn('font-medium', severity.className)}>{severity.label}: </span>
                {finding.message}
              </p>
              {finding.fix && (
                <p className="text-muted-foreground" data-testid="finding-fix">
                  <span className="font-medium text-foreground">How to fix: </span>
                  {finding.fix}
                </p>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** A record as published: wrapped anywhere (a DKIM key is one long word), with a button to copy it whole. */
function RecordText({ record, copyLabel, missingText = 'No record found' }: { record: string | null; copyLabel: string; missingText?: string }) {
  if (!record) return <p className="text-xs text-muted-foreground">{missingText}</p>;
  return (
    <div className="flex items-start gap-1">
      <code data-testid="record-text" className="block min-w-0 flex-1 break-all rounded bg-muted px-2 py-1 font-mono text-xs">
        {record}
      </code>
      <CopyButton value={record} label={copyLabel} />
    </div>
  );
}

interface CheckLike {
  status: DomainChecks['spf']['status'];
  record: string | null;
  findings: Finding[];
}

function CheckSection({
  title,
  check,
  children,
  testId,
  recordOptional = false,
  optional = false,
  allClear = check.status === 'valid',
}: {
  title: string;
  check: CheckLike;
  children?: ReactNode;
  testId: string;
  /** DKIM and MX have no single record of their own: say nothing when there is none. */
  recordOptional?: boolean;
  /** A record a domain may well go without (MTA-STS, TLS-RPT, BIMI): missing is shown neutrally. */
  optional?: boolean;
  /** Whether "No problems found." may be said (DKIM: only when no selector has findings either). */
  allClear?: boolean;
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} data-testid={testId} className="space-y-2 rounded-md border p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={titleId} className="text-sm font-semibold">
          {title}
        </h4>
        <CheckStatusBadge status={check.status} optional={optional} />
      </div>
      {!(recordOptional && !check.record) && <RecordText record={check.record} copyLabel={`Copy ${title} record`} />}
      {children}
      <Findings findings={check.findings} okText={allClear ? 'No problems found.' : undefined} />
    </section>
  );
}

function Limit({ used, limit, text }: { used: number; limit: number; text: string }) {
  const tone = used > limit ? 'bad' : used === limit ? 'warn' : 'good';
  return (
    <Pill tone={tone}>
      {used} of {limit} {text}
    </Pill>
  );
}

function SpfTreeNode({ node }: { node: SpfNode }) {
  return (
    <li className="space-y-1">
      <div className="flex flex-wrap items-baseline gap-x-2 text-xs">
        <span className="font-medium">{node.domain}</span>
        <span className="text-muted-foreground">
          {node.lookups} {node.lookups === 1 ? 'lookup' : 'lookups'}
        </span>
      </div>
      {node.record && <code className="block break-all font-mono text-xs text-muted-foreground">{node.record}</code>}
      {node.error && <p className="text-xs text-red-700">{node.error}</p>}
      {node.children.length > 0 && (
        <ul className="ml-3 space-y-2 border-l pl-3">
          {node.children.map((child, index) => (
            <SpfTreeNode key={`${child.domain}-${index}`} node={child} />
          ))}
        </ul>
      )}
    </li>
  );
}

function SpfSection({ spf }: { spf: DomainChecks['spf'] }) {
  return (
    <CheckSection title="SPF" check={spf} testId="check-spf">
      <div className="flex flex-wrap gap-2">
        <Limit used={spf.lookupCount} limit={SPF_LOOKUP_LIMIT} text="DNS lookups" />
        <Limit used={spf.voidLookupCount} limit={SPF_VOID_LOOKUP_LIMIT} text="void lookups" />
      </div>
      {spf.tree && (
        <div className="space-y-1">
          <p className="text-xs font-medium">Include tree</p>
          <ul data-testid="spf-tree" aria-label="SPF include tree" className="space-y-2">
            <SpfTreeNode node={spf.tree} />
          </ul>
        </div>
      )}
    </CheckSection>
  );
}

function DkimSection({ dkim }: { dkim: DomainChecks['dkim'] }) {
  return (
    <CheckSection
      title="DKIM"
      // Each selector below shows its own record: the check's (the first usable key) would repeat one of them.
      check={{ ...dkim, record: null }}
      testId="check-dkim"
      recordOptional
      allClear={dkim.status === 'valid' && dkim.selectors.every((result) => result.findings.length === 0)}
    >
      {dkim.selectors.length === 0 ? (
        // The finding below says what was tried and how to add the right selector; this lists them.
        dkim.triedSelectors &&
        dkim.triedSelectors.length > 0 && (
          <div className="space-y-1">
            <p className="text-xs font-medium">Selectors tried ({dkim.triedSelectors.length})</p>
            <ul aria-label="DKIM selectors tried" className="flex flex-wrap gap-1">
              {dkim.triedSelectors.map((selector) => (
                <li key={selector} className="min-w-0 rounded-full border bg-secondary px-2 py-0.5 font-mono text-xs wrap-anywhere">
                  {selector}
                </li>
              ))}
            </ul>
          </div>
        )
      ) : (
        <ul className="space-y-2">
          {dkim.selectors.map((result) => (
            <li key={result.selector} data-testid="dkim-selector" data-selector={result.selector} className="space-y-1 rounded border p-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="min-w-0 font-mono text-xs font-medium wrap-anywhere">{result.selector}._domainkey</span>
                <CheckStatusBadge status={result.status} />
              </div>
              {(result.keyType || result.keyBits) && (
                <p className="text-xs text-muted-foreground">
                  Key: {[result.keyType?.toUpperCase(), result.keyBits ? `${result.keyBits} bits` : null].filter(Boolean).join(', ')}
                </p>
              )}
              {result.record && (
                // A key is hundreds of characters nobody reads: one line, whole in its tooltip and copy button.
                <div data-testid="dkim-key">
                  <LongValue
                    value={result.record}
                    copyLabel={`Copy DKIM record ${result.selector}._domainkey`}
                    className="rounded bg-muted pl-2 font-mono text-xs"
                  />
                </div>
              )}
              <Findings findings={result.findings} />
            </li>
          ))}
        </ul>
      )}
    </CheckSection>
  );
}

function DmarcSection({ dmarc }: { dmarc: DomainChecks['dmarc'] }) {
  const tags = Object.entries(dmarc.tags);
  return (
    <CheckSection title="DMARC" check={dmarc} testId="check-dmarc">
      {dmarc.foundAt && (
        <p className="text-xs text-muted-foreground">
          Found at <code className="font-mono">{dmarc.foundAt}</code>
        </p>
      )}
      {tags.length > 0 && (
        <dl aria-label="DMARC tags" className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
          {tags.map(([tag, value]) => (
            <div key={tag} className="contents">
              <dt className="font-mono font-medium">{tag}</dt>
              <dd className="break-all font-mono">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {dmarc.externalReportDestinations.length > 0 && (
        <div className="space-y-1">
          <p className="text-xs font-medium">External report destinations</p>
          <ul className="space-y-1 text-xs">
            {dmarc.externalReportDestinations.map((destination) => (
              <li key={destination.domain}>
                <span className="font-mono">{destination.domain}</span>:{' '}
                {destination.authorized ? 'authorized to receive reports' : 'not authorized to receive reports'}
              </li>
            ))}
          </ul>
        </div>
      )}
    </CheckSection>
  );
}

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
            <pre className="overflow-x-auto whitespace-pre-wrap break-all rounded bg-muted px-2 py-1 font-mono text-xs">{checks.mtaSts.policy}</pre>
          )}
        </CheckSection>
        <CheckSection title="TLS-RPT" check={checks.tlsRpt} testId="check-tls-rpt" optional />
        <CheckSection title="BIMI" check={checks.bimi} testId="check-bimi" optional />
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
              <p className="text-muted-foreground">Click Verify DNS to check SPF, DKIM, DMARC, MX, MTA-STS, TLS-RPT and BIMI now.</p>
            </div>
          )
        }
      </QueryState>
    </div>
  );
}
