import { NotAvailableYet } from '../../components/not-available-yet';

// Placeholder until the alerts screen is built; the shell shows its title (router.tsx).
export default function AlertsPage() {
  return (
    <div data-testid="alerts-page">
      <NotAvailableYet>Here you will review active alerts and alert history, open an alert's details and choose how and when you are alerted.</NotAvailableYet>
    </div>
  );
}
