import type { IpAddress, IpMonitoringStatus } from '@contracts/reputation';
import type { User } from '@contracts/user';
import { makeAnswer, makeDomainReputation, makeIp } from '../../../test/reputation-fixtures';
import { jsonResponse, makeUser, stubFetch } from '../../../test/test-utils';

export { makeAnswer, makeDomainReputation, makeIp };

// Blacklist Monitoring's test stubs (test-only module); the answer builders are shared with the reputation pages.

type Handlers = Parameters<typeof stubFetch>[0];

export function makeStatus(overrides: Partial<IpMonitoringStatus> = {}): IpMonitoringStatus {
  return {
    totalProviders: 40,
    totalDomainProviders: 9,
    isRunning: false,
    lastRun: '2025-03-01T10:00:00.000Z',
    nextRun: '2025-03-01T12:00:00.000Z',
    lastError: null,
    ...overrides,
  };
}

/** A signed-in user with these IPs (a function is asked on every GET), an idle monitor and, unless `extra` says otherwise, no domains. */
export function stubBlacklist(ips: IpAddress[] | (() => IpAddress[]), extra: Handlers = {}, user: Partial<User> = {}) {
  return stubFetch({
    'GET /api/user': () => jsonResponse(makeUser(user)),
    'GET /api/ip-addresses': () => jsonResponse(typeof ips === 'function' ? ips() : ips),
    'GET /api/reputation/domains': () => jsonResponse([]),
    'GET /api/ip-monitoring/status': () => jsonResponse(makeStatus()),
    ...extra,
  });
}
