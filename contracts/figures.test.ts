import { describe, expect, it } from 'vitest';
import { metricsWindowStart, percentOf, sendingRates } from './figures';

describe('figures shared by server and browser', () => {
  it('divides complaints by delivered mail and bounces by sent mail', () => {
    expect(sendingRates({ sent: 1000, delivered: 800, bounced: 200, complaints: 2 })).toEqual({
      deliveryRate: 80,
      bounceRate: 20,
      complaintRate: 0.25,
    });
  });

  it('has no rate where there is nothing to divide by', () => {
    expect(sendingRates({ sent: 0, delivered: 0, bounced: 0, complaints: 0 })).toEqual({
      deliveryRate: null,
      bounceRate: null,
      complaintRate: null,
    });
    expect(percentOf(1, 0)).toBeNull();
    expect(percentOf(1, 3, 2)).toBe(33.33);
  });

  it('counts the last 30 days as today and the 29 days before it', () => {
    expect(metricsWindowStart(new Date('2026-11-23T23:59:00Z'))).toBe('2026-10-25');
    expect(metricsWindowStart(new Date('2026-03-01T00:00:00Z'))).toBe('2026-01-31');
  });
});
