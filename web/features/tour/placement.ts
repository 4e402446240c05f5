import type { TourStep } from './steps';

export interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

const GAP = 12;
const MARGIN = 16;
/** Below this width the card is docked at the bottom of the screen instead of beside its target. */
export const DOCK_BELOW_PX = 640;

/** The first element matching the selector that is actually on screen (not display:none). */
export function findVisibleTarget(selector: string): HTMLElement | null {
  if (selector === 'body') return null;
  for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
    const rect = el.getBoundingClientRect();
    if (rect.width > 0 && rect.height > 0) return el;
  }
  return null;
}

/**
 * Where the tour card goes (viewport coordinates) next to a target box, kept inside the viewport;
 * null when it should be centred (no target) or docked (narrow screens).
 */
export function placeCard(
  target: Box | null,
  position: TourStep['position'],
  card: { width: number; height: number },
  viewport: { width: number; height: number },
): { top: number; left: number } | null {
  if (!target || viewport.width < DOCK_BELOW_PX) return null;
  let top: number;
  let left: number;
  if (position === 'right') {
    left = target.left + target.width + GAP;
    top = target.top + target.height / 2 - card.height / 2;
  } else if (position === 'top') {
    left = target.left + target.width / 2 - card.width / 2;
    top = target.top - GAP - card.height;
  } else {
    left = target.left + target.width / 2 - card.width / 2;
    top = target.top + target.height + GAP;
  }
  const clamp = (value: number, max: number) => Math.max(MARGIN, Math.min(value, max - MARGIN));
  return {
    left: clamp(left, viewport.width - card.width),
    top: clamp(top, viewport.height - card.height),
  };
}
