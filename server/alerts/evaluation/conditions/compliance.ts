import { COMPLIANCE_PROVIDER_NAMES, domainCompliancePath } from '@contracts/compliance';
import type { EvaluationData, Measured } from './shared';

/*
 * The bulk-sender rules of each domain's compliance scorecard (ADR 055): while any rule is not met, the domain holds
 * one alert naming them (updated as they change), so one missing record does not raise an alert per provider; when
 * none is left not met (met again, or no longer judged for want of evidence), it is resolved.
 */

export function complianceConditions({ compliance }: EvaluationData): Measured[] {
  return compliance.map((card): Measured => {
    const notMet = card.rules.filter((rule) => rule.verdict === 'not_met');
    const providers = [...new Set(notMet.map((rule) => COMPLIANCE_PROVIDER_NAMES[rule.provider]))];
    return {
      key: `compliance:${card.domain}`,
      recovered: `${card.domain} no longer fails a bulk-sender rule.`,
      alert:
        notMet.length === 0
          ? null
          : {
              type: 'compliance',
              severity: 'warning',
              title: `${card.domain} does not meet ${notMet.length} bulk-sender rule${notMet.length === 1 ? '' : 's'} (${providers.join(', ')})`,
              message: `Not met: ${notMet
                .map((rule) => `${COMPLIANCE_PROVIDER_NAMES[rule.provider]}: ${rule.title}`)
                .join('; ')}. The compliance page gives each rule's evidence and fix.`,
              domain: card.domain,
              measure: `bulk-sender rules not met for ${card.domain}`,
              metadata: {
                value: notMet.length,
                domain: card.domain,
                rules: notMet.map((rule) => rule.id).join(','),
                link: domainCompliancePath(card.domainId),
              },
            },
    };
  });
}
