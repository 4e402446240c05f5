import { NotAvailableYet } from '../../components/not-available-yet';

// Placeholder until the blacklist monitoring screen is built; the shell shows its title (router.tsx).
export default function BlacklistMonitoringPage() {
  return (
    <div data-testid="blacklist-monitoring-page">
      <NotAvailableYet>Here you will see whether your IP addresses are listed on DNS blocklists, with the result of every list checked.</NotAvailableYet>
    </div>
  );
}
