import { NotAvailableYet } from '../../components/not-available-yet';

// Placeholder until the reputation monitoring screen is built; the shell shows its title (router.tsx).
export default function ReputationPage() {
  return (
    <div data-testid="reputation-page">
      <NotAvailableYet>Here you will add your sending IP addresses and follow the sender reputation of your IPs and domains.</NotAvailableYet>
    </div>
  );
}
