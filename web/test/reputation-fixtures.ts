import type { DomainReputation, IpAddress, ReputationDetail } from '@contracts/reputation';

// Builders of reputation API answers shared by the Reputation and Blacklist Monitoring tests (test-only module).

export function makeAnswer(overrides: Partial<ReputationDetail> = {}): ReputationDetail {
  return {
    listId: 'spamhaus-zen',
    provider: 'Spamhaus ZEN',
    zone: 'zen.spamhaus.org',
    tier: 1,
    status: 'clear',
    listed: false,
    answers: [],
    reason: null,
    txt: null,
    removalUrl: 'https://check.spamhaus.org/',
    ignored: false,
    checkedAt: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}

export function makeIp(overrides: Partial<IpAddress> = {}): IpAddress {
  return {
    id: 1,
    ipAddress: '203.0.113.25',
    label: 'Mail server 1',
    type: 'dedicated',
    associatedDomains: [],
    status: 'clean',
    blacklistCount: 0,
    totalProviders: 40,
    senderScore: 96,
    scoreFactors: [
      { label: 'Blocklists', points: 0, detail: 'Not listed on any list' },
      { label: 'Reverse DNS', points: 4, detail: 'PTR mail.example.com does not resolve back' },
    ],
    reverseDns: 'mail.example.com',
    reverseDnsConfirmed: false,
    lastChecked: '2025-03-01T10:00:00.000Z',
    reputationDetails: [makeAnswer()],
    createdAt: '2025-02-01T10:00:00.000Z',
    ...overrides,
  };
}

export function makeDomainReputation(overrides: Partial<DomainReputation> = {}): DomainReputation {
  return {
    id: 1,
    domain: 'example.com',
    reputationScore: 95,
    scoreFactors: [{ label: 'Domain blocklists', points: 0, detail: 'Not listed' }],
    domainAge: 12,
    registrar: 'Example Registrar, Inc.',
    blacklistCount: 0,
    totalProviders: 9,
    lastChecked: '2025-03-01T10:00:00.000Z',
    reputationDetails: [],
    ...overrides,
  };
}
