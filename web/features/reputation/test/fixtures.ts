import type { IpAddress } from '@contracts/reputation';
import type { User } from '@contracts/user';
import { makeAnswer, makeDomainReputation, makeIp } from '../../../test/reputation-fixtures';
import { makePostmasterStatus } from '../../../test/postmaster-fixtures';
import { jsonResponse, makeUser, stubFetch } from '../../../test/test-utils';

export { makeAnswer, makeDomainReputation, makeIp };

// The reputation pages' test stubs (test-only module); the answer builders are shared with Blacklist Monitoring.

type Handlers = Parameters<typeof stubFetch>[0];

/** A signed-in user with these IPs (a function is asked on every GET) and, unless `extra` says otherwise, no domains and no suggestions. */
export function stubReputation(ips: IpAddress[] | (() => IpAddress[]), extra: Handlers = {}, user: Partial<User> = {}) {
  return stubFetch({
    'GET /api/user': () => jsonResponse(makeUser(user)),
    'GET /api/ip-addresses': () => jsonResponse(typeof ips === 'function' ? ips() : ips),
    'GET /api/reputation/domains': () => jsonResponse([]),
    'GET /api/ip-addresses/suggestions': () => jsonResponse([]),
    'GET /api/domains': () => jsonResponse([]),
    'GET /api/postmaster/status': () => jsonResponse(makePostmasterStatus()),
    ...extra,
  });
}
