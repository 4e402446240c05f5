import { useId } from 'react';
import type { BimiCertificate, DomainChecks } from '@contracts/domains';
import { formatBytes, formatDate } from '../../../lib/format';
import { CheckSection } from './check-section';

const CERTIFICATE_TYPES = { VMC: 'VMC (Verified Mark Certificate)', CMC: 'CMC (Common Mark Certificate)' } as const;

function CertificateDetails({ certificate }: { certificate: BimiCertificate }) {
  const titleId = useId();
  const rows: [string, string][] = [
    ['Type', CERTIFICATE_TYPES[certificate.type]],
    ['Issued to', certificate.subject],
    ['Issued by', certificate.issuer],
    [
      'Valid',
      `${formatDate(certificate.validFrom, { utc: true })} to ${formatDate(certificate.validTo, { utc: true })}`,
    ],
    ['Covers', certificate.domains.join(', ')],
  ];
  if (certificate.logoMatches !== null)
    rows.push([
      'Logo',
      certificate.logoMatches ? 'the logo at l= is the one it carries' : 'the logo at l= is not the one it carries',
    ]);
  return (
    <div role="group" aria-labelledby={titleId} className="space-y-1">
      <p id={titleId} className="text-xs font-medium">
        Mark certificate
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-muted-foreground">{term}</dt>
            <dd className="break-all">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The BIMI box: the record, the logo at l= as checked, and the mark certificate at a= when it validated. */
export function BimiSection({ bimi }: { bimi: DomainChecks['bimi'] }) {
  return (
    <CheckSection title="BIMI" check={bimi} testId="check-bimi" optional>
      {bimi.logo && (
        <p data-testid="bimi-logo" className="text-xs">
          <span className="text-muted-foreground">Logo: </span>
          <span className="break-all font-mono">{bimi.logo.url}</span> ({formatBytes(bimi.logo.bytes)}),{' '}
          {bimi.logo.valid ? 'SVG Tiny PS' : 'not SVG Tiny PS'}
        </p>
      )}
      {bimi.certificate && <CertificateDetails certificate={bimi.certificate} />}
    </CheckSection>
  );
}
