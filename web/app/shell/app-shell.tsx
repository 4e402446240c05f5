import { useState, type ReactNode } from 'react';
import type { User } from '@contracts/user';
import { OnboardingTour } from '../../features/tour/onboarding-tour';
import { TooltipProvider } from '../../components/ui/tooltip';
import { PageTrailContext, type TrailItem } from '../../lib/page-trail';
import { MobileNav } from './mobile-nav';
import { PageHeader } from './page-header';
import type { ShellMeta } from './shell-meta';
import { Sidebar } from './sidebar';

/** The frame of every signed-in page (part 1, section 2.7). Loaded lazily: signed-out visitors never need it. */
export default function AppShell({ user, meta, children }: { user: User; meta: ShellMeta; children: ReactNode }) {
  // Tooltips are set up here, not around the whole app: Radix Tooltip and its positioning engine
  // would otherwise ship in the landing page's first chunk. A public page that adds tooltips wraps
  // itself in TooltipProvider too.
  // A page that names what it shows (a domain) replaces the route's trail while it is shown.
  const [trail, setTrail] = useState<TrailItem[] | null>(null);
  return (
    <TooltipProvider>
      <div className="min-h-screen bg-muted/40">
        <Sidebar user={user} />
        <div className="md:pl-64">
          <MobileNav user={user} />
          <PageHeader meta={trail ? { ...meta, breadcrumbs: trail } : meta} user={user} />
          <main id="main-content" className="px-4 py-6 sm:px-6 lg:px-8">
            <PageTrailContext value={setTrail}>{children}</PageTrailContext>
          </main>
        </div>
        <OnboardingTour user={user} />
      </div>
    </TooltipProvider>
  );
}
