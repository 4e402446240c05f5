import { NotAvailableYet } from '../../components/not-available-yet';

// Placeholder until the inbox placement testing screen is built; the shell shows its title (router.tsx).
export default function InboxPlacementPage() {
  return (
    <div data-testid="inbox-placement-page">
      <NotAvailableYet>Here you will run inbox-placement tests by sending a real email to our seed mailboxes and see where it lands, by provider, region, country and mailbox system.</NotAvailableYet>
    </div>
  );
}
