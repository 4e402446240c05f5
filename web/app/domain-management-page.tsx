import DomainsPage from '../features/domains/domains-page';
import { DmarcSection } from '../features/dmarc/components/dmarc-section';

/** Domain Management with each domain's DMARC reports in its card: the two features meet here, not in each other. */
export default function DomainManagementPage() {
  return <DomainsPage renderCardFooter={(domain) => <DmarcSection domain={domain.domain} isVerified={domain.isVerified} />} />;
}
