import { Link } from 'react-router';
import { PublicPlaceholder } from '../../components/public-placeholder';
import { Button } from '../../components/ui/button';
import { PATHS } from '../../lib/paths';

// Placeholder until the pricing page is built. Login's 'Sign up here' lands here, so the way to
// registration must already work.
export default function PricingPage() {
  return (
    <PublicPlaceholder title="Pricing">
      This page will compare the InboxPulse plans and let you choose one. You can already create a free account.
      <span className="mt-4 flex justify-center">
        <Button asChild>
          <Link to={PATHS.register}>Start Free Account</Link>
        </Button>
      </span>
    </PublicPlaceholder>
  );
}
