import type { DomainChecks } from '@contracts/domains';
import { CheckSection } from './check-section';

export function DmarcSection({ dmarc }: { dmarc: DomainChecks['dmarc'] }) {
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
