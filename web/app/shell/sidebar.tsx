import type { User } from '@contracts/user';
import { Brand } from '../../components/brand';
import { SidebarNav } from './sidebar-nav';
import { UserPanel } from './user-panel';

/** Desktop navigation: fixed 16rem column, shown from the md breakpoint up (part 1, section 2.7). */
export function Sidebar({ user }: { user: User }) {
  return (
    <aside
      data-testid="sidebar"
      aria-label="Sidebar"
      className="fixed inset-y-0 left-0 z-30 hidden w-64 flex-col bg-sidebar text-sidebar-foreground md:flex"
    >
      <div className="flex h-16 items-center px-6">
        <Brand tone="inverted" />
      </div>
      <SidebarNav />
      <UserPanel user={user} placement="sidebar" />
    </aside>
  );
}
