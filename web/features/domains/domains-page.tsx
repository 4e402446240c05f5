import { NotAvailableYet } from '../../components/not-available-yet';

// Placeholder until the domain management screen is built; the shell shows its title (router.tsx).
export default function DomainsPage() {
  return (
    <div data-testid="domains-page">
      <NotAvailableYet>Here you will add your sending domains, verify them with a DNS record and follow their SPF, DKIM and DMARC status.</NotAvailableYet>
    </div>
  );
}
