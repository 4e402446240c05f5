import { Link } from 'react-router';
import { PublicPlaceholder } from '../../components/public-placeholder';
import { Button } from '../../components/ui/button';
import { PATHS } from '../../lib/paths';

// Placeholder until card payment is built; no payment can be taken here yet.
export default function CheckoutPage() {
  return (
    <PublicPlaceholder title="Checkout">
      This page will take the card payment for a paid plan. No payment can be made here yet.
      <span className="mt-4 flex justify-center">
        <Button asChild variant="outline">
          <Link to={PATHS.pricing}>Back to Pricing</Link>
        </Button>
      </span>
    </PublicPlaceholder>
  );
}
