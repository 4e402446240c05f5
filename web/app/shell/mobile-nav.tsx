import { useState } from 'react';
import { useLocation } from 'react-router';
import { Menu } from 'lucide-react';
import type { User } from '@contracts/user';
import { TOUR_ANCHORS } from '../../features/tour/steps';
import { Brand } from '../../components/brand';
import { Button } from '../../components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../components/ui/sheet';
import { PlanBadge } from './header-parts';
import { SidebarNav } from './sidebar-nav';
import { UserPanel } from './user-panel';

/**
 * Below md: a top bar (the only part that stays on screen while the page scrolls) with the menu
 * button, which opens the navigation as a 16rem slide-out drawer, and the plan.
 */
export function MobileNav({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  // Any navigation (a nav item, the logo, a link in the page) closes the drawer. The path last
  // rendered is kept, and a new one closes the drawer while rendering, before anything is painted.
  const [shownPath, setShownPath] = useState(pathname);
  if (pathname !== shownPath) {
    setShownPath(pathname);
    setOpen(false);
  }
  return (
    <div className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background px-3 sm:px-4 md:hidden">
      <Button
        variant="ghost"
        size="icon"
        aria-label="Open navigation menu"
        onClick={() => setOpen(true)}
        data-tour={TOUR_ANCHORS.mobileNav}
      >
        <Menu className="size-5" aria-hidden="true" />
      </Button>
      <Brand className="shrink-0" />
      {/* On the narrowest phones the plan label gives way (ellipsis) rather than push the bar wider. */}
      <div className="ml-auto flex min-w-0 items-center">
        <PlanBadge user={user} className="min-w-0" />
      </div>
      <Sheet open={open} onOpenChange={setOpen}>
        <SheetContent>
          <SheetTitle className="sr-only">Navigation</SheetTitle>
          <SheetDescription className="sr-only">Pages of InboxPulse</SheetDescription>
          <div className="flex h-16 items-center px-6">
            <Brand tone="inverted" />
          </div>
          <SidebarNav />
          <UserPanel user={user} placement="drawer" />
        </SheetContent>
      </Sheet>
    </div>
  );
}
