import { describe, expect, it } from 'vitest';
import { placeCard } from './placement';
import { TOUR_STEPS } from './steps';

const card = { width: 360, height: 200 };
const desktop = { width: 1440, height: 900 };

describe('tour placement', () => {
  it('has the seven steps of the spec in order, each with a target and position', () => {
    expect(TOUR_STEPS.map((s) => s.id)).toEqual([
      'welcome',
      'dashboard',
      'domains',
      'inbox-tests',
      'alerts',
      'mobile-nav',
      'complete',
    ]);
    expect(TOUR_STEPS.find((s) => s.id === 'dashboard')?.route).toBe('/');
    for (const step of TOUR_STEPS) {
      expect(step.target).toBeTruthy();
      expect(['top', 'bottom', 'right']).toContain(step.position);
    }
  });

  it('puts the card right of, below or above its target', () => {
    const target = { top: 100, left: 20, width: 200, height: 40 };
    expect(placeCard(target, 'right', card, desktop)).toEqual({ left: 232, top: 20 });
    expect(placeCard(target, 'bottom', card, desktop)).toEqual({ left: 16, top: 152 });
    expect(placeCard({ ...target, top: 600, left: 600 }, 'top', card, desktop)).toEqual({ left: 520, top: 388 });
  });

  it('keeps the card inside the viewport', () => {
    const target = { top: 880, left: 1400, width: 30, height: 10 };
    expect(placeCard(target, 'right', card, desktop)).toEqual({ left: 1064, top: 684 });
  });

  it('centres without a target and docks on narrow screens', () => {
    expect(placeCard(null, 'bottom', card, desktop)).toBeNull();
    expect(
      placeCard({ top: 10, left: 10, width: 40, height: 40 }, 'bottom', card, { width: 390, height: 800 }),
    ).toBeNull();
  });
});
