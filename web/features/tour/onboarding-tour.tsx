import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type RefObject,
} from 'react';
import { X } from 'lucide-react';
import { useLocation, useNavigate } from 'react-router';
import type { User } from '@contracts/user';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/utils';
import { useCompleteTourMutation } from './api';
import { DOCK_BELOW_PX, findVisibleTarget, placeCard, type Box } from './placement';
import { TOUR_STEPS } from './steps';

declare global {
  interface Window {
    /** Part 2, section 2: restarts the onboarding tour from its first step. */
    restartOnboardingTour?: () => void;
  }
}

// Part 2, section 9: a local flag marks the tour seen. The account flag (hasCompletedTour) is what
// keeps it closed on every device; this one covers a completion call that failed on this device.
const seenKey = (userId: number) => `inboxpulse.tour-seen.${userId}`;

function readSeen(userId: number): boolean {
  try {
    return window.localStorage.getItem(seenKey(userId)) === '1';
  } catch {
    return false;
  }
}

function writeSeen(userId: number, seen: boolean): void {
  try {
    if (seen) window.localStorage.setItem(seenKey(userId), '1');
    else window.localStorage.removeItem(seenKey(userId));
  } catch {
    // Storage can be unavailable (private mode); the account flag still does the job.
  }
}

function toBox(el: HTMLElement | null): Box | null {
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return { top: r.top, left: r.left, width: r.width, height: r.height };
}

/** Keeps the box of a step's target up to date while the window scrolls or resizes. */
function useTargetBox(selector: string, active: boolean, pathname: string): Box | null {
  const [box, setBox] = useState<Box | null>(null);
  useLayoutEffect(() => {
    if (!active) return;
    const measure = () => {
      const next = toBox(findVisibleTarget(selector));
      setBox((prev) =>
        prev &&
        next &&
        prev.top === next.top &&
        prev.left === next.left &&
        prev.width === next.width &&
        prev.height === next.height
          ? prev
          : next,
      );
    };
    measure();
    // A page reached by the step's route renders after this effect; measure again once it has.
    const frame = requestAnimationFrame(measure);
    window.addEventListener('resize', measure);
    window.addEventListener('scroll', measure, true);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', measure);
      window.removeEventListener('scroll', measure, true);
    };
  }, [selector, active, pathname]);
  return active ? box : null;
}

const DEFAULT_CARD_SIZE = { width: 360, height: 240 };

/**
 * The card's measured size, which placing it next to its target needs: measured before paint when the
 * tour opens or moves to another step (new words), and again whenever its box changes size
 * otherwise (the window narrows, the card docks).
 */
function useCardSize(cardRef: RefObject<HTMLElement | null>, open: boolean, step: number) {
  const [size, setSize] = useState(DEFAULT_CARD_SIZE);
  useLayoutEffect(() => {
    const card = cardRef.current;
    if (!open || !card) return;
    const measure = () => {
      const { width, height } = card.getBoundingClientRect();
      if (width > 0 && height > 0)
        setSize((prev) => (prev.width === width && prev.height === height ? prev : { width, height }));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(card);
    return () => observer.disconnect();
  }, [cardRef, open, step]);
  return size;
}

/**
 * The onboarding tour (part 2, section 2): seven steps with a progress bar, Previous / Next /
 * Get Started, Skip Tour and a close icon. It opens by itself for a user who has not completed it,
 * and window.restartOnboardingTour() opens it again. It is a non-modal dialog: the highlighted page
 * stays usable underneath.
 */
export function OnboardingTour({ user }: { user: User }) {
  // First visit: open once per mount of the shell, only for a user who has never finished or skipped it.
  const [open, setOpen] = useState(() => !user.hasCompletedTour && !readSeen(user.id));
  const [step, setStep] = useState(0);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const complete = useCompleteTourMutation();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const returnFocusTo = useRef<Element | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const restart = () => {
      writeSeen(user.id, false);
      setStep(0);
      setOpen(true);
    };
    window.restartOnboardingTour = restart;
    return () => {
      if (window.restartOnboardingTour === restart) delete window.restartOnboardingTour;
    };
  }, [user.id]);

  const current = TOUR_STEPS[step];
  const isFirst = step === 0;
  const isLast = step === TOUR_STEPS.length - 1;

  const goTo = useCallback(
    (index: number) => {
      setStep(index);
      const route = TOUR_STEPS[index].route;
      if (!route) return;
      // The rendered location can lag behind the router's (a lazy page is still loading), so "already
      // there" is not trusted to skip the navigation: it only replaces the entry instead of adding one.
      navigate(route, { replace: route === pathname });
    },
    [navigate, pathname],
  );

  const close = useCallback(() => {
    setOpen(false);
    writeSeen(user.id, true);
    // Finishing, skipping and closing all mark the tour done on the account (once).
    if (!user.hasCompletedTour && !complete.isPending) complete.mutate();
  }, [complete, user.hasCompletedTour, user.id]);

  // Focus: into the dialog when it opens (so its title is announced), back where it was when it closes.
  useEffect(() => {
    if (!open) return;
    returnFocusTo.current = document.activeElement;
    dialogRef.current?.focus();
    return () => {
      const previous = returnFocusTo.current;
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus();
    };
  }, [open]);

  // A button that just became disabled (Previous on the first step) drops focus; keep it in the dialog.
  useEffect(() => {
    const active = document.activeElement;
    if (!open || !dialogRef.current) return;
    if (active === document.body || (active instanceof HTMLButtonElement && active.disabled)) dialogRef.current.focus();
  }, [open, step]);

  const targetBox = useTargetBox(current.target, open, pathname);
  const cardSize = useCardSize(dialogRef, open, step);

  if (!open) return null;

  const viewport = { width: window.innerWidth, height: window.innerHeight };
  const placement = placeCard(targetBox, current.position, cardSize, viewport);
  const docked = !placement && viewport.width < DOCK_BELOW_PX;
  const cardStyle: CSSProperties | undefined = placement ? { top: placement.top, left: placement.left } : undefined;
  const progress = ((step + 1) / TOUR_STEPS.length) * 100;

  return (
    <>
      {/* Dims the page and rings the step's target; it never takes clicks away from the page. */}
      {targetBox ? (
        <div
          aria-hidden="true"
          className="pointer-events-none fixed z-[60] rounded-md ring-2 ring-primary ring-offset-2 transition-all"
          style={{
            top: targetBox.top - 4,
            left: targetBox.left - 4,
            width: targetBox.width + 8,
            height: targetBox.height + 8,
            boxShadow: '0 0 0 9999px rgb(15 23 42 / 0.45)',
          }}
        />
      ) : (
        <div aria-hidden="true" className="pointer-events-none fixed inset-0 z-[60] bg-slate-900/45" />
      )}
      {/* A non-modal <dialog> (open, never showModal): the highlighted page stays usable. */}
      <dialog
        open
        ref={dialogRef}
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        tabIndex={-1}
        data-testid="onboarding-tour"
        data-step={current.id}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            close();
          }
        }}
        style={cardStyle}
        className={cn(
          // text-foreground: the browser's dialog style sets its own text colour.
          'fixed z-[61] w-[min(22.5rem,calc(100vw-2rem))] rounded-lg border bg-background p-5 text-foreground shadow-xl focus-visible:outline-none',
          !placement && !docked && 'left-1/2 top-1/2 -translate-x-1/2 -translate-y-1/2',
          docked && 'inset-x-4 bottom-4 w-auto',
        )}
      >
        <div className="mb-3 flex items-center justify-between gap-2">
          <p className="text-xs font-medium text-muted-foreground">
            Step {step + 1} of {TOUR_STEPS.length}
          </p>
          <button
            type="button"
            onClick={close}
            aria-label="Close tour"
            className="rounded-sm p-1 opacity-70 hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </div>
        <div
          role="progressbar"
          aria-label="Tour progress"
          aria-valuemin={1}
          aria-valuemax={TOUR_STEPS.length}
          aria-valuenow={step + 1}
          aria-valuetext={`Step ${step + 1} of ${TOUR_STEPS.length}`}
          className="mb-4 h-1.5 w-full overflow-hidden rounded-full bg-muted"
        >
          <div
            className="h-full rounded-full bg-primary transition-[width]"
            style={{ width: `${progress}%` }}
            data-testid="tour-progress"
          />
        </div>
        <h2 id={titleId} className="text-lg font-semibold">
          {current.title}
        </h2>
        <p id={descriptionId} className="mt-2 text-sm text-muted-foreground">
          {current.description}
        </p>
        <div className="mt-5 flex flex-wrap items-center justify-between gap-2">
          <Button variant="ghost" size="sm" onClick={close}>
            Skip Tour
          </Button>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" onClick={() => goTo(step - 1)} disabled={isFirst}>
              Previous
            </Button>
            <Button size="sm" onClick={() => (isLast ? close() : goTo(step + 1))}>
              {isLast ? 'Get Started' : 'Next'}
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}
