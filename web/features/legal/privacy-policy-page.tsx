import { privacyPolicy } from '@content/legal/privacy-policy';
import { PLAN_IDS, PLAN_LIMITS, PLAN_NAMES } from '@contracts/plans';
import { PATHS } from '../../lib/paths';
import { LegalPage } from './legal-page';

/** How long each plan keeps monitoring data: the limits the server enforces (ADR 032). */
const RETENTION = PLAN_IDS.map((plan) => {
  const days = PLAN_LIMITS[plan].retentionDays;
  return `${PLAN_NAMES[plan]}: ${days === null ? 'as agreed in your contract' : `${days} days`}`;
});

const PRIVACY_POLICY = privacyPolicy(RETENTION);

/** /privacy-policy (part 2, section 2): static legal text with Back to Home. */
export default function PrivacyPolicyPage() {
  return (
    <LegalPage
      document={PRIVACY_POLICY}
      testId="privacy-policy-page"
      other={{ label: 'Terms of Service', to: PATHS.termsOfService }}
    />
  );
}
