import { LogIn } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { PATHS } from '../../lib/paths';

/** Part 2, section 2: what a signed-out visitor of /inbox-placement reads. */
export const SIGNED_OUT_MESSAGE = 'Please log in to access inbox placement testing';

export function SignedOutNotice() {
  return (
    <Card
      role="alert"
      className="mx-auto flex max-w-lg flex-col items-center gap-4 p-8 text-center"
      data-testid="inbox-placement-signed-out"
    >
      <p className="font-medium">{SIGNED_OUT_MESSAGE}</p>
      <Button asChild>
        <Link to={PATHS.login}>
          <LogIn aria-hidden="true" />
          Log In
        </Link>
      </Button>
    </Card>
  );
}
