import { PRIVACY_POLICY } from '@content/legal/privacy-policy';
import { PATHS } from '../../lib/paths';
import { LegalPage } from './legal-page';

/** /privacy-policy (part 2, section 2): static legal text with Back to Home. */
export default function PrivacyPolicyPage() {
  return <LegalPage document={PRIVACY_POLICY} testId="privacy-policy-page" other={{ label: 'Terms of Service', to: PATHS.termsOfService }} />;
}
