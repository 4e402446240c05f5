import { COMPLIANCE_PROVIDER_NAMES, domainCompliancePath } from '@contracts/compliance';
import type { EvaluationData, Measured } from './shared';

/*
 * The bulk-sender rules of each domain's compliance scorecard (ADR 055): a rule that is not met holds an alert
 * of its own (one per domain and rule); met again, or no longer judged for want of evidence, it is resolved.
 */

export function complianceConditions({ compliance }: EvaluationData): Measured[] {
  return compliance.flatMap((card) =>
    card.rules.map((rule): Measured => {
      const provider = COMPLIANCE_PROVIDER_NAMES[rule.provider];
      return {
        key: `compliance:${card.domain}:${rule.id}`,
        recovered:
          rule.verdict === 'met'
            ? `${card.domain} meets ${provider}’s rule “${rule.title}” again.`
            : `${provider}’s rule “${rule.title}” can no longer be judged for ${card.domain}: no evidence in the last 30 days.`,
        alert:
          rule.verdict !== 'not_met'
            ? null
            : {
                type: 'compliance',
                severity: 'warning',
                title: `${card.domain} does not meet ${provider}: ${rule.title}`,
                message: `${rule.evidence.map((e) => e.text).join(' ')}${rule.fix ? ` Fix: ${rule.fix}` : ''}`,
                domain: card.domain,
                measure: `${provider}: ${rule.title} for ${card.domain}`,
                metadata: {
                  value: 'not met',
                  domain: card.domain,
                  rule: rule.id,
                  source: rule.sourceUrl,
                  link: domainCompliancePath(card.domainId),
                },
              },
      };
    }),
  );
}
