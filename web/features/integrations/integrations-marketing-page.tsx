import { Link } from 'react-router';
import { PublicPlaceholder } from '../../components/public-placeholder';
import { Button } from '../../components/ui/button';
import { PATHS } from '../../lib/paths';

// Placeholder for what signed-out visitors of /integrations will see (part 2, Integrations).
export default function IntegrationsMarketingPage() {
  return (
    <PublicPlaceholder title="Integrations">
      This page will present the email service providers and mail transfer agents InboxPulse connects to.
      <span className="mt-4 flex flex-wrap justify-center gap-3">
        <Button asChild>
          <Link to={PATHS.register}>Start Free Trial</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={PATHS.login}>Login</Link>
        </Button>
      </span>
    </PublicPlaceholder>
  );
}
