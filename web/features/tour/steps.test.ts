import { describe, expect, it } from 'vitest';
import { isAppPath, PATHS } from '../../lib/paths';
import { TOUR_STEPS } from './steps';

describe('tour steps', () => {
  it('only ever goes to screens of the app', () => {
    for (const step of TOUR_STEPS)
      if (step.route) expect(isAppPath(step.route), `${step.id} goes to ${step.route}`).toBe(true);
  });

  it('sends the Alerts step to the Alerts page, where the red badge counts the unread alerts', () => {
    expect(TOUR_STEPS.find((step) => step.id === 'alerts')).toMatchObject({
      route: PATHS.alerts,
      description: expect.stringContaining('red badge'),
    });
  });
});
