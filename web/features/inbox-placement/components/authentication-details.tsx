import type { InboxTestReport } from '@contracts/inbox-tests';
import { Pill } from '../../../components/ui/pill';
import { AnalysisSection, Code, Facts, ResultPill, yesNo } from './analysis-parts';

type Authentication = NonNullable<InboxTestReport['authentication']>;

function Dkim({ signatures }: { signatures: Authentication['dkim'] }) {
  if (signatures.length === 0) return <span className="text-muted-foreground">No DKIM signature</span>;
  return (
    <ul className="space-y-1">
      {signatures.map((signature, index) => (
        <li
          key={`${signature.domain}-${signature.selector ?? ''}-${index}`}
          className="flex flex-wrap items-center gap-2"
        >
          <ResultPill result={signature.result} />
          <span className="[overflow-wrap:anywhere]">
            d={signature.domain}
            {signature.selector ? ` s=${signature.selector}` : ''}
          </span>
          <Pill tone={signature.aligned ? 'good' : 'warn'}>{signature.aligned ? 'Aligned' : 'Not aligned'}</Pill>
          {(signature.algorithm || signature.keyBits) && (
            <span className="text-xs text-muted-foreground">
              {[signature.algorithm, signature.keyBits ? `${signature.keyBits}-bit key` : null]
                .filter(Boolean)
                .join(', ')}
            </span>
          )}
          {signature.comment && <span className="w-full text-xs text-muted-foreground">{signature.comment}</span>}
        </li>
      ))}
    </ul>
  );
}

/** SPF, DKIM per signature, DMARC, ARC and BIMI as the receiving side evaluated them, and the raw Authentication-Results. */
export function AuthenticationDetails({ authentication }: { authentication: Authentication }) {
  const { spf, dmarc, arc, bimi } = authentication;
  return (
    <AnalysisSection title="Authentication details" testId="analysis-authentication">
      <Facts
        items={[
          [
            'SPF',
            <span key="spf" className="flex flex-wrap items-center gap-2">
              <ResultPill result={spf.result} />
              {spf.domain && <span>{spf.domain}</span>}
              {spf.record && <Code>{spf.record}</Code>}
              {spf.comment && <span className="text-xs text-muted-foreground">{spf.comment}</span>}
            </span>,
          ],
          ['DKIM', <Dkim key="dkim" signatures={authentication.dkim} />],
          [
            'DMARC',
            dmarc ? (
              <span key="dmarc" className="flex flex-wrap items-center gap-2">
                <ResultPill result={dmarc.result} />
                {dmarc.domain && <span>{dmarc.domain}</span>}
                {dmarc.policy && (
                  <span>
                    policy {dmarc.policy}
                    {dmarc.testing && ' (t=y: one level below the published policy)'}
                  </span>
                )}
                <span className="text-xs text-muted-foreground">
                  SPF aligned: {yesNo(dmarc.spfAligned)}
                  {dmarc.aspf === 's' && ' (strict)'} · DKIM aligned: {yesNo(dmarc.dkimAligned)}
                  {dmarc.adkim === 's' && ' (strict)'}
                </span>
                {dmarc.policyDomain && dmarc.policyDomain !== dmarc.domain && (
                  <span className="text-xs text-muted-foreground">
                    record found at _dmarc.{dmarc.policyDomain}
                    {dmarc.policySource === 'public-suffix-domain'
                      ? ', a public suffix domain'
                      : ', the Organizational Domain'}
                  </span>
                )}
                {dmarc.record && <Code>{dmarc.record}</Code>}
              </span>
            ) : (
              'Not evaluated'
            ),
          ],
          [
            'ARC',
            arc ? (
              <span key="arc" className="flex flex-wrap items-center gap-2">
                <ResultPill result={arc.result} />
                {arc.instance !== null && (
                  <span className="text-xs text-muted-foreground">instance {arc.instance}</span>
                )}
              </span>
            ) : (
              'No ARC chain'
            ),
          ],
          [
            'BIMI',
            bimi ? (
              <span key="bimi" className="flex flex-wrap items-center gap-2">
                <ResultPill result={bimi.result} />
                {bimi.logo && <Code>{bimi.logo}</Code>}
                {bimi.comment && <span className="text-xs text-muted-foreground">{bimi.comment}</span>}
              </span>
            ) : (
              'Not evaluated'
            ),
          ],
          ['Header From', authentication.headerFrom.length > 0 ? authentication.headerFrom.join(', ') : 'None'],
        ]}
      />
      <div className="space-y-1">
        <p className="text-xs font-medium text-muted-foreground">Authentication-Results</p>
        <pre className="whitespace-pre-wrap break-all rounded bg-muted p-2 font-mono text-xs">
          {authentication.authenticationResults}
        </pre>
      </div>
    </AnalysisSection>
  );
}
