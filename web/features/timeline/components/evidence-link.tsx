import { ExternalLink } from 'lucide-react';
import { Link } from 'react-router';
import { SCREENS } from '@content/screens';
import { Button } from '../../../components/ui/button';

/** The screen a path opens, by its name in the navigation ("Blacklist Monitor"). */
function screenName(path: string): string | undefined {
  const bare = path.split(/[?#]/, 1)[0];
  return Object.values(SCREENS).find((screen) => screen.path === bare)?.name;
}

/**
 * Where the user acts on a piece of evidence: a page of the app, or a provider's page outside it.
 * Anything else the server might send (a javascript: URL) is not made a link.
 */
export function EvidenceLink({ to, about }: { to: string | null; about: string }) {
  if (!to) return null;
  if (to.startsWith('/') && !to.startsWith('//')) {
    const name = screenName(to);
    const label = name ? `Open ${name}` : 'Open';
    return (
      <Button asChild variant="link" size="sm" className="h-auto px-0 py-0">
        <Link to={to} aria-label={`${label}: ${about}`}>
          {label}
        </Link>
      </Button>
    );
  }
  if (/^https:\/\//i.test(to)) {
    return (
      <Button asChild variant="link" size="sm" className="h-auto px-0 py-0">
        <a href={to} target="_blank" rel="noreferrer" aria-label={`Open (new tab): ${about}`}>
          Open
          <ExternalLink aria-hidden="true" />
        </a>
      </Button>
    );
  }
  return null;
}
