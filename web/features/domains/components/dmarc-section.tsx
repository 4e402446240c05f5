import type { DmarcDiscovery, DomainChecks } from '@contracts/domains';
import type { z } from 'zod';
import { Pill } from '../../../components/ui/pill';
import { CheckSection } from './check-section';

type Discovery = z.infer<typeof DmarcDiscovery>;

/** What each tag is, as RFC 9989 4.7 names it; pct, rf and ri are RFC 7489 tags RFC 9989 removed (C.5.2). */
const TAGS: Record<string, string> = {
  v: 'Version',
  p: 'Policy',
  sp: 'Policy for subdomains',
  np: 'Policy for non-existent subdomains',
  psd: 'Public suffix domain flag',
  t: 'Testing mode',
  adkim: 'DKIM alignment',
  aspf: 'SPF alignment',
  fo: 'Failure report options',
  rua: 'Aggregate reports to',
  ruf: 'Failure reports to',
};
const REMOVED = new Set(['pct', 'rf', 'ri']);

const SOURCES: Record<Discovery['source'], string> = {
  'author-domain': 'this domain’s own record',
  'organizational-domain': 'the record of its Organizational Domain, found by the DNS tree walk (RFC 9989)',
  'public-suffix-domain': 'a public suffix domain’s record (psd=y), found by the DNS tree walk (RFC 9989)',
};

/** Why this tag of the record applies to this domain (RFC 9989 4.10.1). */
const TAG_REASONS: Record<Discovery['policyTag'], string> = {
  p: '',
  sp: ', the policy for subdomains',
  np: ', the policy for subdomains that do not exist',
};

function AppliedPolicy({ discovery }: { discovery: Discovery }) {
  const { appliedPolicy, requestedPolicy, policyTag, testing } = discovery;
  if (appliedPolicy === null)
    return <span>none: receivers apply no DMARC processing (no valid policy and no rua= address)</span>;
  const from = `from ${policyTag}=${requestedPolicy}${TAG_REASONS[policyTag]}`;
  return (
    <span className="flex flex-wrap items-center gap-2">
      <Pill tone={appliedPolicy === 'none' ? 'warn' : 'good'} testId="dmarc-applied-policy">
        {appliedPolicy}
      </Pill>
      <span className="text-muted-foreground">
        {requestedPolicy === null
          ? `read as none: the record’s policy tags are not valid, but it has a rua= address`
          : testing && requestedPolicy !== appliedPolicy
            ? `${from}, applied one level lower in testing mode (t=y)`
            : from}
      </span>
    </span>
  );
}

export function DmarcSection({ dmarc }: { dmarc: DomainChecks['dmarc'] }) {
  const tags = Object.entries(dmarc.tags);
  const { discovery } = dmarc;
  return (
    <CheckSection title="DMARC" check={dmarc} testId="check-dmarc">
      {dmarc.foundAt && (
        <p className="text-xs text-muted-foreground">
          Found at <code className="font-mono">{dmarc.foundAt}</code>
          {discovery && `: ${SOURCES[discovery.source]}`}
        </p>
      )}
      {discovery && (
        <dl aria-label="DMARC policy discovery" className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
          <dt className="font-medium">Policy for this domain</dt>
          <dd>
            <AppliedPolicy discovery={discovery} />
          </dd>
          <dt className="font-medium">Organizational Domain</dt>
          <dd className="font-mono">{discovery.organizationalDomain ?? 'unknown (a DNS lookup failed)'}</dd>
          <dt className="font-medium">Names asked</dt>
          <dd className="break-all font-mono">{discovery.queried.map((name) => `_dmarc.${name}`).join(' → ')}</dd>
        </dl>
      )}
      {tags.length > 0 && (
        <dl aria-label="DMARC tags" className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
          {tags.map(([tag, value]) => (
            <div key={tag} className="contents" data-testid="dmarc-tag">
              <dt className="font-mono font-medium">{tag}</dt>
              <dd className="flex flex-wrap items-center gap-2">
                <span className="break-all font-mono">{value}</span>
                {TAGS[tag] && <span className="text-muted-foreground">{TAGS[tag]}</span>}
                {REMOVED.has(tag) && <Pill tone="warn">Removed in RFC 9989</Pill>}
                {!TAGS[tag] && !REMOVED.has(tag) && <Pill tone="none">Not a DMARC tag: ignored</Pill>}
              </dd>
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
