import { NotAvailableYet } from '../../components/not-available-yet';

// Placeholder until the reputation test screen is built; the shell shows its title (router.tsx).
export default function ReputationTestPage() {
  return (
    <div data-testid="reputation-test-page">
      <NotAvailableYet>This diagnostic page will show your sign-in status and the state of the reputation check of each of your IP addresses.</NotAvailableYet>
    </div>
  );
}
