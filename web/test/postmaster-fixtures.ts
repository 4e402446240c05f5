import type { PostmasterDay, PostmasterStatus } from '@contracts/postmaster';
import { daysAgo, utcDay } from '@contracts/utc-day';

// Answers of the Google Postmaster Tools endpoints, for the dashboard's and the reputation page's tests.

export function makePostmasterStatus(overrides: Partial<PostmasterStatus> = {}): PostmasterStatus {
  return { state: 'not_connected', domains: [], connectedAt: null, lastImportAt: null, lastError: null, ...overrides };
}

export const connectedStatus = (overrides: Partial<PostmasterStatus> = {}) =>
  makePostmasterStatus({
    state: 'connected',
    domains: ['mail.example.com'],
    connectedAt: '2025-01-01T00:00:00.000Z',
    lastImportAt: new Date().toISOString(),
    ...overrides,
  });

/** A day as the import stores it from Google's trafficStats (ratios from 0 to 1). */
export function makePostmasterDay(overrides: Partial<PostmasterDay> = {}): PostmasterDay {
  return {
    domain: 'mail.example.com',
    date: utcDay(daysAgo(1)),
    userReportedSpamRatio: 0.0008,
    userReportedSpamRatioLowerBound: 0.0006,
    userReportedSpamRatioUpperBound: 0.001,
    spfSuccessRatio: 0.998,
    dkimSuccessRatio: 0.995,
    dmarcSuccessRatio: 0.99,
    inboundEncryptionRatio: 1,
    outboundEncryptionRatio: 0.97,
    domainReputation: 'HIGH',
    ipReputations: [{ reputation: 'HIGH', ipCount: 2, sampleIps: ['198.51.100.7', '198.51.100.8'] }],
    deliveryErrors: [],
    spammyFeedbackLoops: [],
    ...overrides,
  };
}
