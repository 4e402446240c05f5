import { NotAvailableYet } from '../../components/not-available-yet';

// Placeholder until the integrations manager screen is built; the shell shows its title (router.tsx).
export default function IntegrationsPage() {
  return (
    <div data-testid="integrations-page">
      <NotAvailableYet>
        Here you will connect your email service providers and mail transfer agents so their delivery data flows into InboxPulse.
      </NotAvailableYet>
    </div>
  );
}
