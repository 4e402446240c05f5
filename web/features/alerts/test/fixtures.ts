import type { Alert } from '@contracts/alerts';
import { type AlertRule, type AlertSettings, UNSAVED_ALERT_SETTINGS } from '@contracts/alert-settings';
import type { Domain } from '@contracts/domains';
import type { User } from '@contracts/user';
import { jsonResponse, makeUser, stubFetch } from '../../../test/test-utils';

// The Alerts page's test stubs (test-only module).

type Handlers = Parameters<typeof stubFetch>[0];

const HOUR = 60 * 60 * 1000;
export const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();

export function makeAlert(overrides: Partial<Alert> = {}): Alert {
  return {
    id: 1,
    type: 'dns_changes',
    severity: 'warning',
    title: 'SPF record changed on example.com',
    message: 'The SPF record of example.com changed from "v=spf1 -all" to "v=spf1 include:_spf.google.com ~all".',
    domain: 'example.com',
    metadata: null,
    isRead: false,
    createdAt: hoursAgo(3),
    updatedAt: null,
    resolvedAt: null,
    acknowledgedAt: null,
    history: [{ at: hoursAgo(3), event: 'raised', message: 'Raised by a DNS check.' }],
    ...overrides,
  };
}

/** A blacklist_detection alert as server/reputation/blocklist-alerts.ts writes it. */
export function makeBlacklistAlert(overrides: Partial<Alert> = {}): Alert {
  const checkedAt = hoursAgo(1);
  return makeAlert({
    id: 7,
    type: 'blacklist_detection',
    severity: 'warning',
    title: '93.184.216.34 is now listed on SpamCop',
    message:
      'SpamCop lists 93.184.216.34: Blocked. Removal: https://www.spamcop.net/bl.shtml It is on 1 of the 38 lists checked.',
    domain: null,
    createdAt: checkedAt,
    metadata: {
      ipAddress: '93.184.216.34',
      checkedAt,
      providers: [
        {
          provider: 'SpamCop',
          hostname: 'bl.spamcop.net',
          description: 'Blocked - see https://www.spamcop.net/bl.shtml?93.184.216.34',
          listed: true,
          checkedAt,
        },
        { provider: 'Barracuda', hostname: 'b.barracudacentral.org', description: null, listed: false, checkedAt },
      ],
      totalProviders: 38,
      listedCount: 1,
    },
    history: [{ at: checkedAt, event: 'raised', message: 'Listed on SpamCop.' }],
    ...overrides,
  });
}

export function makeSettings(overrides: Partial<AlertSettings> = {}): AlertSettings {
  return {
    ...UNSAVED_ALERT_SETTINGS,
    updatedAt: null,
    ...overrides,
  };
}

/**
 * GET and PUT /api/alert-settings as the server answers them: a save merges the fields sent into the
 * saved settings, which the next GET answers. `answerOf` makes the PUT's reply from the saved settings.
 */
export function settingsEndpoints(
  answerOf: (saved: AlertSettings) => unknown = (saved) => saved,
  initial: AlertSettings = makeSettings(),
): Handlers {
  let saved = initial;
  return {
    'GET /api/alert-settings': () => jsonResponse(saved),
    'PUT /api/alert-settings': (init) => {
      saved = {
        ...saved,
        ...(JSON.parse(String(init?.body)) as Partial<AlertSettings>),
        updatedAt: new Date().toISOString(),
      };
      return jsonResponse(answerOf(saved));
    },
  };
}

export function makeRule(overrides: Partial<AlertRule> = {}): AlertRule {
  return {
    id: 1,
    name: 'High bounce rate',
    type: 'bounceRate',
    domain: null,
    threshold: { warning: 5, critical: 10 },
    notifications: { email: true, webhook: false, slack: false, sms: false },
    timeWindow: '1h',
    enabled: true,
    createdAt: hoursAgo(2),
    ...overrides,
  };
}

/** A signed-in user with these alerts (a function is asked on every GET), default settings and no rules, unless `extra` says otherwise. */
export function stubAlerts(
  alerts: Alert[] | (() => Alert[]),
  extra: Handlers = {},
  user: Partial<User> = {},
  domains: Domain[] = [],
) {
  const list = () => (typeof alerts === 'function' ? alerts() : alerts);
  const byId: Handlers = {};
  for (const alert of list())
    byId[`GET /api/alerts/${alert.id}`] = () => jsonResponse(list().find((each) => each.id === alert.id) ?? alert);
  return stubFetch({
    'GET /api/user': () => jsonResponse(makeUser(user)),
    'GET /api/alerts': () => jsonResponse(list()),
    'GET /api/alert-settings': () => jsonResponse(makeSettings()),
    'GET /api/alerts/rules': () => jsonResponse([]),
    'GET /api/domains': () => jsonResponse(domains),
    ...byId,
    ...extra,
  });
}
