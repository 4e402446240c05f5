import { NotAvailableYet } from '../../components/not-available-yet';

// Placeholder until the subscription management screen is built; the shell shows its title (router.tsx).
export default function SubscriptionPage() {
  return (
    <div data-testid="subscription-page">
      <NotAvailableYet>
        Here you will see your plan, its status and next billing date, your usage and billing history, and change or cancel your plan.
      </NotAvailableYet>
    </div>
  );
}
