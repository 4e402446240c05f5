import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { ChatWidget } from '../features/chat/chat-widget';
import { CookieBanner } from '../features/cookie-consent/cookie-banner';

/** Part 1, sections 1 and 2.2: the chat assistant and the cookie banner on the public pages. */
export function PublicExtras({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <CookieBanner />
      <ChatWidget />
    </>
  );
}

/** Layout route of the public pages that carry the chat assistant and the cookie banner. */
export function PublicExtrasLayout() {
  return (
    <PublicExtras>
      <Outlet />
    </PublicExtras>
  );
}
