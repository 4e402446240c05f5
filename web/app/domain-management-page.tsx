import DomainsPage from '../features/domains/domains-page';
import { DmarcImports } from '../features/dmarc/components/dmarc-imports';
import { DmarcSection } from '../features/dmarc/components/dmarc-section';

/**
 * Domain Management with each domain's DMARC reports in its card, and below the domains the account's
 * DMARC imports that belong to no card (failed files, reports for domains not added): the two
 * features meet here, not in each other.
 */
export default function DomainManagementPage() {
  return (
    <div className="space-y-6">
      <DomainsPage
        renderCardFooter={(domain) => <DmarcSection domain={domain.domain} isVerified={domain.isVerified} />}
      />
      <DmarcImports />
    </div>
  );
}
