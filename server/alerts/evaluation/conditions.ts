import type { EvaluationData, Measured } from './conditions/shared';
import { gmailSpamConditions } from './conditions/gmail-spam';
import { inboxConditions } from './conditions/inbox';
import { metricConditions } from './conditions/metrics';
import { scoreConditions } from './conditions/score';
import { authRecordConditions } from './conditions/auth-records';
import { complianceConditions } from './conditions/compliance';
import { dmarcConditions } from './conditions/dmarc';
import { ruleConditions } from './conditions/rules';

export { DMARC_DAYS, GMAIL_SPAM_DAYS, INBOX_TEST_DAYS } from './conditions/thresholds';
export { ruleEventWindows } from './conditions/rules';
export type { EvaluationData, Measured } from './conditions/shared';

/*
 * Every condition the evaluation watches, computed from one user's data without touching the
 * database: one file per group in conditions/, the numbers that decide an alert in conditions/thresholds.ts
 * (docs/decisions/025).
 */

/** The namespaces of keys the evaluation owns: an open alert under one of them that nothing measured is resolved. */
export const EVALUATED_PREFIXES = [
  'inbox:',
  'metrics:',
  'score:',
  'auth-records:',
  'dmarc-failures:',
  'rule:',
  'gmail-spam:',
  'compliance:',
] as const;

/** Every condition of the user's data. */
export function measureAll(data: EvaluationData): Measured[] {
  return [
    ...inboxConditions(data),
    ...metricConditions(data),
    ...scoreConditions(data),
    ...authRecordConditions(data),
    ...dmarcConditions(data),
    ...ruleConditions(data),
    ...gmailSpamConditions(data),
    ...complianceConditions(data),
  ];
}
