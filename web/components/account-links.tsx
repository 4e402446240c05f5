import { CircleUser } from 'lucide-react';
import { Link } from 'react-router';
import { PATHS } from '../lib/paths';
import { useAuth } from '../lib/session';
import { Button } from './ui/button';

/**
 * The account end of a public page's header: Login for a visitor; for someone signed in, who they are
 * and the way back to their Dashboard (a public page never asks a signed-in user to log in).
 */
export function AccountLinks() {
  const { user } = useAuth();
  if (!user) {
    return (
      <Button asChild variant="outline" size="sm">
        <Link to={PATHS.login}>Login</Link>
      </Button>
    );
  }
  return (
    <>
      <span className="inline-flex max-w-40 items-center gap-1.5 px-2 text-sm font-medium" data-testid="signed-in-user">
        <CircleUser className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <span className="sr-only">Signed in as </span>
        <span className="truncate">{user.username}</span>
      </span>
      <Button asChild size="sm">
        <Link to={PATHS.dashboard}>Dashboard</Link>
      </Button>
    </>
  );
}
