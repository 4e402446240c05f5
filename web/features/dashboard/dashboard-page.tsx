import { NotAvailableYet } from '../../components/not-available-yet';

// Placeholder until the dashboard screen is built; the shell shows its title (router.tsx).
export default function DashboardPage() {
  return (
    <div data-testid="dashboard-page">
      <NotAvailableYet>Your dashboard will bring together your email health score, domain authentication, inbox test results, connected providers and recent alerts.</NotAvailableYet>
    </div>
  );
}
