import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import type { User } from '@contracts/user';
import { PATHS } from '../../lib/paths';
import { cn } from '../../lib/utils';
import { Button } from '../../components/ui/button';
import { Breadcrumbs } from './breadcrumbs';
import { PlanBadge, TourHelpButton } from './header-parts';
import type { ShellMeta } from './shell-meta';

/**
 * Header of every signed-in page: breadcrumbs, title, description, user and plan, Add Domain. Sticky
 * from the md breakpoint, where the sidebar is. On phones it scrolls away with the page (the top bar
 * stays) and keeps to the title and description: the tour button and the plan move to the top bar
 * (MobileNav), the username is in the drawer, and a trail that only repeats the title is left out.
 */
export function PageHeader({ meta, user }: { meta: ShellMeta; user: User }) {
  const trailLeadsSomewhere = meta.breadcrumbs?.some((item) => item.to) ?? false;
  return (
    <header className="border-b bg-background/95 px-4 py-3 sm:px-6 sm:py-4 md:sticky md:top-0 md:z-20 md:backdrop-blur lg:px-8">
      <div className={cn('mb-1 sm:mb-2', !trailLeadsSomewhere && 'hidden sm:block')}>
        <Breadcrumbs trail={meta.breadcrumbs} />
      </div>
      <div className="flex items-start justify-between gap-x-4 gap-y-3">
        <div className="min-w-0 flex-1">
          <h1 className="text-xl font-bold tracking-tight sm:text-2xl">{meta.title}</h1>
          {meta.description && <p className="mt-1 text-sm text-muted-foreground">{meta.description}</p>}
        </div>
        <div className="flex shrink-0 items-center gap-2 sm:gap-3">
          <TourHelpButton />
          <div className="hidden flex-col items-end gap-1 md:flex">
            <p className="text-sm font-medium">{user.username}</p>
            <PlanBadge user={user} />
          </div>
          {meta.showAddDomain && (
            <>
              <Button asChild className="hidden sm:inline-flex">
                <Link to={PATHS.domains}>
                  <Plus aria-hidden="true" />
                  Add Domain
                </Link>
              </Button>
              <Button asChild size="icon" className="sm:hidden">
                <Link to={PATHS.domains} aria-label="Add Domain">
                  <Plus aria-hidden="true" />
                </Link>
              </Button>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
