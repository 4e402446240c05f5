import type { CheckStatus, DomainChecks } from '@contracts/domains';
import type { ScoreFactor } from '@contracts/reputation';

/**
 * The authentication term of a domain's reputation score (ADR 042), from the domain's last DNS
 * check: SPF, DKIM and DMARC each take AUTH_POINTS off when missing or unusable. Gmail and Yahoo
 * require all three of bulk senders since 2024, so one of them gone is enough to end "Excellent"
 * (90 and above). A record never checked takes nothing off: it is not known, and the factor says so.
 */
export const AUTH_POINTS = 15;

export interface AuthenticationFacts {
  spf: CheckStatus | null;
  dkim: CheckStatus | null;
  dmarc: CheckStatus | null;
  /** The stored check, for the first error each record's findings name. */
  checks: DomainChecks | null;
}

type AuthRecord = 'spf' | 'dkim' | 'dmarc';

/** What a missing or unusable record costs a sender, in the words the score breakdown shows. */
const WORDS: {
  [R in AuthRecord]: {
    name: string;
    missing: (domain: string) => [string, string];
    invalid: (domain: string) => [string, string];
  };
} = {
  spf: {
    name: 'SPF',
    missing: (d) => [
      'No SPF record',
      `${d} publishes no SPF record, so receivers cannot tell which servers may send as it.`,
    ],
    invalid: (d) => [
      'SPF record broken',
      `Receivers cannot use the SPF record of ${d} (a permerror), so SPF fails for its mail`,
    ],
  },
  dkim: {
    name: 'DKIM',
    missing: (d) => [
      'No DKIM key found',
      `No DKIM key was found for ${d} at the selectors checked, so its mail carries no signature receivers can verify.`,
    ],
    invalid: (d) => ['DKIM key unusable', `Receivers cannot verify signatures with the DKIM key of ${d}`],
  },
  dmarc: {
    name: 'DMARC',
    missing: (d) => [
      'No DMARC record',
      `${d} publishes no DMARC record: receivers have no policy for mail that fails SPF and DKIM, and Gmail and Yahoo require one of bulk senders.`,
    ],
    invalid: (d) => ['DMARC record unusable', `Receivers cannot use the DMARC record of ${d}`],
  },
};

/** The first error the check found for a record, as the Domains page words it. */
function firstError(checks: DomainChecks | null, record: AuthRecord): string | null {
  return checks?.[record].findings.find((f) => f.severity === 'error')?.message ?? null;
}

export function authenticationFactors(domain: string, facts: AuthenticationFacts): ScoreFactor[] {
  const records: AuthRecord[] = ['spf', 'dkim', 'dmarc'];
  const unchecked = records.filter((r) => facts[r] === null);
  if (unchecked.length === records.length)
    return [
      {
        label: 'Authentication not checked yet',
        points: 0,
        detail: `${domain}'s SPF, DKIM and DMARC records have not been checked yet; they count in the score once they are.`,
      },
    ];
  const factors: ScoreFactor[] = [];
  for (const record of records) {
    const status = facts[record];
    if (status === 'missing') {
      const [label, detail] = WORDS[record].missing(domain);
      factors.push({ label, points: AUTH_POINTS, detail });
    } else if (status === 'invalid') {
      const [label, why] = WORDS[record].invalid(domain);
      const error = firstError(facts.checks, record);
      factors.push({ label, points: AUTH_POINTS, detail: error ? `${why}: ${error}` : `${why}.` });
    }
  }
  if (factors.length === 0 && unchecked.length === 0)
    return [
      {
        label: 'SPF, DKIM and DMARC valid',
        points: 0,
        detail: `${domain} publishes a working SPF record, a DKIM key and a DMARC record.`,
      },
    ];
  if (unchecked.length > 0) {
    const names = unchecked.map((r) => WORDS[r].name).join(' and ');
    factors.push({
      label: `${names} not checked yet`,
      points: 0,
      detail: `${names} of ${domain} count in the score once checked.`,
    });
  }
  return factors;
}
