import { lazy, Suspense, useRef, useState } from 'react';
import { MessageCircle, X } from 'lucide-react';
import { cn } from '../../lib/utils';

// The panel (messages, input, API call) is fetched the first time the button is used, so the
// landing page's first load carries only this button.
const loadPanel = () => import('./chat-panel');
const ChatPanel = lazy(loadPanel);

export const CHAT_PANEL_ID = 'chat-assistant-panel';

/** Floating AI chat assistant of the public pages (part 1, sections 1, 2.2, 4, 5, 8). */
export function ChatWidget() {
  const [open, setOpen] = useState(false);
  // Once opened, the panel stays mounted (hidden when closed) so the conversation survives.
  const [mounted, setMounted] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const toggle = () => {
    setMounted(true);
    setOpen((value) => !value);
  };

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <>
      {mounted && (
        <Suspense fallback={open ? <PanelLoading /> : null}>
          <ChatPanel id={CHAT_PANEL_ID} open={open} onClose={close} />
        </Suspense>
      )}
      <button
        ref={buttonRef}
        type="button"
        aria-label={open ? 'Close chat assistant' : 'Open chat assistant'}
        aria-expanded={open}
        aria-controls={mounted ? CHAT_PANEL_ID : undefined}
        onClick={toggle}
        // Warm the panel chunk when the pointer or keyboard focus reaches the button.
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
        className={cn(
          'fixed right-4 bottom-4 z-50 inline-flex size-14 items-center justify-center rounded-full bg-primary text-primary-foreground shadow-lg transition-transform',
          'hover:scale-105 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-none',
        )}
      >
        {open ? <X aria-hidden="true" className="size-6" /> : <MessageCircle aria-hidden="true" className="size-6" />}
      </button>
    </>
  );
}

function PanelLoading() {
  return (
    <div
      role="status"
      className="fixed right-3 bottom-20 z-50 flex h-40 w-[calc(100vw-1.5rem)] items-center justify-center rounded-xl border bg-card text-sm text-muted-foreground shadow-2xl sm:right-4 sm:w-96"
    >
      Loading the assistant…
    </div>
  );
}
