import { CircleHelp } from 'lucide-react';
import { Link } from 'react-router';
import type { User } from '@contracts/user';
import { PLAN_LABELS } from '@contracts/plans';
import { PATHS } from '../../lib/paths';
import { cn } from '../../lib/utils';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '../../components/ui/tooltip';

/** Restarts the onboarding tour (part 2, section 2), from the page header. */
export function TourHelpButton({ className }: { className?: string }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Take the tour"
          className={className}
          onClick={() => window.restartOnboardingTour?.()}
        >
          <CircleHelp className="size-5" aria-hidden="true" />
        </Button>
      </TooltipTrigger>
      <TooltipContent>Take the tour</TooltipContent>
    </Tooltip>
  );
}

/** The user's real plan, a link to manage the subscription. */
export function PlanBadge({ user, className }: { user: User; className?: string }) {
  const label = PLAN_LABELS[user.subscriptionPlan];
  return (
    <Link
      to={PATHS.subscription}
      className={cn('block rounded-full', className)}
      aria-label={`${label}, manage subscription`}
      data-testid="plan-badge"
    >
      <Badge variant="secondary" className="block max-w-full truncate hover:bg-accent">
        {label}
      </Badge>
    </Link>
  );
}
