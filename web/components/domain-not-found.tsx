import { ArrowLeft, SearchX } from 'lucide-react';
import { Link } from 'react-router';
import { PATHS } from '../lib/paths';
import { Button } from './ui/button';
import { Card } from './ui/card';

/** A page about one domain, opened for a domain that is not the user's (deleted, or a link to someone else's). */
export function DomainNotFound({ testId }: { testId: string }) {
  return (
    <Card data-testid={testId} className="flex flex-col items-center gap-3 px-4 py-12 text-center">
      <SearchX className="size-10 text-muted-foreground" aria-hidden="true" />
      <h2 className="text-lg font-semibold">Domain not found</h2>
      <p className="max-w-md text-sm text-muted-foreground">
        It may have been deleted, or the link is not one of your domains.
      </p>
      <Button asChild variant="outline">
        <Link to={PATHS.domains}>
          <ArrowLeft aria-hidden="true" />
          Back to Domains
        </Link>
      </Button>
    </Card>
  );
}
