import { LogOut } from 'lucide-react';
import type { User } from '@contracts/user';
import { PLAN_LABELS } from '@contracts/plans';
import { useLogoutMutation } from '../../features/auth/api';
import { userInitial } from '../../lib/format';
import { Button } from '../../components/ui/button';

/**
 * Sidebar/drawer footer: who is signed in, on which plan, and Logout. The plan label is the user's
 * real plan, not the original's constant 'Free Plan' (a defect the spec describes; see DESIGN.md).
 */
export function UserPanel({ user, placement }: { user: User; placement: 'sidebar' | 'drawer' }) {
  const logout = useLogoutMutation();
  // Test ids name the desktop sidebar's copy; the drawer's copy gets its own so the two never clash.
  const ids =
    placement === 'sidebar'
      ? { plan: 'sidebar-plan', logout: 'logout-button' }
      : { plan: 'drawer-plan', logout: 'drawer-logout-button' };
  return (
    <div className="border-t border-white/10 p-4">
      <div className="mb-3 flex items-center gap-3">
        <span
          aria-hidden="true"
          className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
        >
          {userInitial(user.username)}
        </span>
        <div className="min-w-0">
          <p className="truncate text-sm font-medium text-white">{user.username}</p>
          <p className="truncate text-xs text-sidebar-muted" data-testid={ids.plan}>
            {PLAN_LABELS[user.subscriptionPlan]}
          </p>
        </div>
      </div>
      <Button
        variant="ghost"
        size="sm"
        className="w-full justify-start text-sidebar-muted hover:bg-sidebar-accent hover:text-white"
        onClick={() => logout.mutate()}
        disabled={logout.isPending}
        data-testid={ids.logout}
      >
        <LogOut aria-hidden="true" />
        {logout.isPending ? 'Logging out...' : 'Logout'}
      </Button>
    </div>
  );
}
