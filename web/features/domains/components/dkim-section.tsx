import type { DomainChecks } from '@contracts/domains';
import { LongValue } from '../../../components/long-value';
import { formatDateTime } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import { CheckSection, Findings } from './check-section';
import { CheckStatusBadge } from './domain-status-badge';

/** Key types as their RFCs write them (RFC 6376, RFC 8463); an unknown one as published. */
const KEY_TYPE_NAMES: Record<string, string> = { rsa: 'RSA', ed25519: 'Ed25519' };

export function DkimSection({ dkim }: { dkim: DomainChecks['dkim'] }) {
  // The check repeats every selector's findings (for webhooks and the API); here each is said once, beside its
  // selector.
  const selectorMessages = new Set(
    dkim.selectors.flatMap((result) => result.findings.map((finding) => finding.message)),
  );
  const unchecked = new Set(dkim.uncheckedSelectors);
  return (
    <CheckSection
      title="DKIM"
      // Each selector below shows its own record: the check's (the first usable key) would repeat one of them.
      check={{
        ...dkim,
        record: null,
        findings: dkim.findings.filter((finding) => !selectorMessages.has(finding.message)),
      }}
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
                <li
                  key={selector}
                  className={cn(
                    'min-w-0 rounded-full border px-2 py-0.5 font-mono text-xs wrap-anywhere',
                    unchecked.has(selector) ? 'border-dashed text-muted-foreground' : 'bg-secondary',
                  )}
                >
                  {selector}
                  {unchecked.has(selector) && ' (no answer)'}
                </li>
              ))}
            </ul>
          </div>
        )
      ) : (
        <ul className="space-y-2">
          {dkim.selectors.map((result) => (
            <li
              key={result.selector}
              data-testid="dkim-selector"
              data-selector={result.selector}
              className="space-y-1 rounded border p-2"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="min-w-0 font-mono text-xs font-medium wrap-anywhere">
                  {result.selector}._domainkey
                </span>
                <CheckStatusBadge status={result.status} />
              </div>
              {(result.keyType || result.keyBits) && (
                <p className="text-xs text-muted-foreground">
                  Key:{' '}
                  {[
                    result.keyType ? (KEY_TYPE_NAMES[result.keyType] ?? result.keyType) : null,
                    result.keyBits ? `${result.keyBits} bits` : null,
                  ]
                    .filter(Boolean)
                    .join(', ')}
                </p>
              )}
              {result.lastFoundAt && (
                <p className="text-xs text-muted-foreground">
                  No answer at this check: the key as found on {formatDateTime(result.lastFoundAt)}.
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
