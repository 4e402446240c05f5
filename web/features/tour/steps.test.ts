import { describe, expect, it } from 'vitest';
import { isLivePath } from '../../lib/live-routes';
import { PATHS } from '../../lib/paths';
import { alertsStep, TOUR_STEPS } from './steps';

describe('tour steps', () => {
  it('only ever goes to built screens', () => {
    for (const step of TOUR_STEPS)
      if (step.route) expect(isLivePath(step.route), `${step.id} goes to ${step.route}`).toBe(true);
  });

  it('sends the Alerts step to the Alerts page once it is built, and to the Dashboard with its Recent Alerts until then', () => {
    expect(alertsStep(true)).toMatchObject({ route: PATHS.alerts, description: expect.stringContaining('red badge') });
    const soon = alertsStep(false);
    expect(soon.route).toBe(PATHS.home);
    expect(soon.description).toMatch(/coming soon/);
    expect(soon.description).toMatch(/Recent Alerts on the Dashboard/);
    expect(soon.description).not.toMatch(/badge/);
    expect(TOUR_STEPS.find((step) => step.id === 'alerts')).toEqual(alertsStep(isLivePath(PATHS.alerts)));
  });
});
