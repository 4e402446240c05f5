import { TERMS_OF_SERVICE } from '@content/legal/terms-of-service';
import { PATHS } from '../../lib/paths';
import { LegalPage } from './legal-page';

/** /terms-of-service (part 2, section 2): the 14 sections of the terms with Back to Home. */
export default function TermsOfServicePage() {
  return (
    <LegalPage
      document={TERMS_OF_SERVICE}
      testId="terms-of-service-page"
      other={{ label: 'Privacy Policy', to: PATHS.privacyPolicy }}
    />
  );
}
