import type { AlertSeverity, AlertType } from '@contracts/alerts';
import { raiseAlert, type NewAlert } from '../../../server/alerts/alerts.service';
import type { Db } from '../../../server/platform/db/client';
import { inLanes, progress } from './progress';
import { seeded } from './random';
import { dayAgo, DAYS, type BenchDomain, type Tier } from './world';

/** Alerts a domain raised in the year, in the words of the checks that raise them. */
const PER_YEAR: Record<Tier, number> = { big: 12, medium: 4, small: 1 };

const KINDS: [AlertType, AlertSeverity, string, (domain: string) => string][] = [
  ['authentication_failure', 'error', 'DMARC failures', (d) => `Mail from unauthorised sources failed DMARC for ${d}`],
  ['dns_changes', 'warning', 'SPF record changed', (d) => `The SPF record of ${d} changed`],
  ['blacklist_detection', 'critical', 'Blocklist listing', (d) => `A sending IP of ${d} was listed`],
  ['bounce', 'warning', 'Bounce rate up', (d) => `The bounce rate of ${d} rose above 5%`],
  ['deliverability_drop', 'error', 'Inbox placement fell', (d) => `Inbox placement of ${d} fell below 80%`],
];

/** Raised as the checks raise them (raiseAlert); `createdAt` moves each to the day it was raised. */
export async function fillAlerts(db: Db, userId: number, domains: readonly BenchDomain[], seed: number, lanes: number) {
  const shown = progress('alerts', domains.length);
  let raised = 0;
  await inLanes(domains, lanes, async (domain) => {
    const random = seeded(seed * 49_979_687 + domain.index);
    for (let i = 0; i < PER_YEAR[domain.tier]; i++) {
      const [type, severity, title, message] = random.pick(KINDS);
      const alert: NewAlert & { createdAt: Date } = {
        userId,
        type,
        severity,
        title,
        message: message(domain.name),
        domain: domain.name,
        createdAt: new Date(dayAgo(random.int(0, DAYS - 1)).getTime() + random.int(0, 86_399_000)),
      };
      await raiseAlert(db, alert);
      raised++;
    }
    shown.step(raised);
  });
  shown.end(raised);
}
