import { CircleHelp, Plus } from 'lucide-react';
import { Link } from 'react-router';
import type { User } from '@contracts/user';
import { PLAN_LABELS } from '@contracts/plans';
import { PATHS } from '../../lib/paths';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '../../components/ui/tooltip';
import { Breadcrumbs } from './breadcrumbs';
import type { ShellMeta } from './shell-meta';

/** Sticky header of every signed-in page: breadcrumbs, title, description, user and plan, Add Domain. */
export function PageHeader({ meta, user }: { meta: ShellMeta; user: User }) {
  return (
    <header className="sticky top-14 z-20 border-b bg-background/95 px-4 py-4 backdrop-blur sm:px-6 md:top-0 lg:px-8">
      <Breadcrumbs trail={meta.breadcrumbs} />
      {/* Wraps on narrow screens so the title never collides with the plan badge and Add Domain. */}
      <div className="mt-2 flex flex-wrap items-start justify-between gap-x-4 gap-y-3">
        <div className="min-w-0 flex-1 basis-56">
          <h1 className="text-2xl font-bold tracking-tight">{meta.title}</h1>
          {meta.description && <p className="mt-1 text-sm text-muted-foreground">{meta.description}</p>}
        </div>
        <div className="flex shrink-0 items-center gap-3">
          <Tooltip>
            <TooltipTrigger asChild>
              <Button variant="ghost" size="icon" aria-label="Take the tour" data-testid="restart-tour" onClick={() => window.restartOnboardingTour?.()}>
                <CircleHelp className="size-5" aria-hidden="true" />
              </Button>
            </TooltipTrigger>
            <TooltipContent>Take the tour</TooltipContent>
          </Tooltip>
          <div className="flex flex-col items-end gap-1">
            <p className="hidden text-sm font-medium sm:block">{user.username}</p>
            <Link to={PATHS.subscription} className="rounded-full" aria-label={`${PLAN_LABELS[user.subscriptionPlan]}, manage subscription`}>
              <Badge variant="secondary" className="hover:bg-accent">
                {PLAN_LABELS[user.subscriptionPlan]}
              </Badge>
            </Link>
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
