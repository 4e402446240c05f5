import {
  BOUNCE_CAUSES,
  type BounceCause,
  type BounceCauses,
  type DeliveryFigures,
  type EventSource,
  type StoredDeliveryEvent,
} from '@contracts/delivery-events';
import { percentOf } from '@contracts/figures';
import { daysAgo } from '@contracts/utc-day';
import { listUserDomains } from '../domains/domains.service';
import type { AppContext } from '../platform/context';
import { listIpAddresses } from '../reputation/ip-addresses.service';
import { bounceCause, CAUSE_ADVICE, CAUSE_LABELS, ipsNamedIn } from './bounce-causes';
import {
  countFailures,
  listFailureGroups,
  type DeliveryEventRow,
  type EventCounts,
  type FailureGroup,
} from './delivery-events.repo';

/*
 * What the stored events say, read back: figures of a window, bounces and deferrals grouped into
 * plain causes with the blocklist listings and DNS findings that explain them.
 */

type ReportContext = Pick<AppContext, 'db' | 'jobs'>;

/** The failure groups read per request: beyond them, the rest of the window's failures count as "other". */
const FAILURE_GROUPS_READ = 5000;

export function toStoredEvent(row: DeliveryEventRow): StoredDeliveryEvent {
  return {
    id: row.id,
    source: row.source,
    messageId: row.messageId,
    recipient: row.recipient,
    eventType: row.eventType,
    bounceClass: row.bounceClass,
    enhancedStatus: row.enhancedStatus,
    smtpResponse: row.smtpResponse,
    domain: row.domain,
    recipientDomain: row.recipientDomain,
    mailboxProvider: row.mailboxProvider,
    sendingIp: row.sendingIp,
    occurredAt: row.occurredAt.toISOString(),
    receivedAt: row.receivedAt.toISOString(),
  };
}

/** Counts with the rates: sent is what has an outcome (delivered or bounced). */
export function toFigures(c: EventCounts): DeliveryFigures {
  const sent = c.delivered + c.bounced;
  return {
    sent,
    ...c,
    deliveryRate: percentOf(c.delivered, sent, 1),
    bounceRate: percentOf(c.bounced, sent, 1),
    complaintRate: percentOf(c.complaints, c.delivered, 2),
  };
}

function causeCounts(counts: Map<BounceCause, number>) {
  return BOUNCE_CAUSES.filter((c) => (counts.get(c) ?? 0) > 0)
    .map((cause) => ({ cause, label: CAUSE_LABELS[cause], count: counts.get(cause) ?? 0, advice: CAUSE_ADVICE[cause] }))
    .sort((a, b) => b.count - a.count);
}

const add = <K>(map: Map<K, number>, key: K, n: number) => map.set(key, (map.get(key) ?? 0) + n);

/** The cause of each failure group, with the window's failures beyond the groups read counted as other. */
export async function classifiedFailures(ctx: ReportContext, userId: number, since: Date, source?: EventSource) {
  const [groups, total] = await Promise.all([
    listFailureGroups(ctx.db, userId, since, FAILURE_GROUPS_READ, source),
    countFailures(ctx.db, userId, since, source),
  ]);
  const classified = groups.map((g) => ({
    ...g,
    cause: bounceCause({ enhancedStatus: g.enhancedStatus, smtpResponse: g.response }),
  }));
  const unread = total - groups.reduce((n, g) => n + g.count, 0);
  return { classified, total, unread };
}

/**
 * GET /api/delivery-events/bounce-causes: the window's bounces and deferrals by cause, overall and
 * per mailbox provider; the IPs blocklist refusals named (or sent from), with what IP monitoring
 * found for each; the sending domains that policy refusals came back for, with their SPF, DKIM and
 * DMARC status from the domain checks.
 */
export async function bounceCauses(
  ctx: ReportContext,
  userId: number,
  days: number,
  now = Date.now(),
): Promise<BounceCauses> {
  const since = daysAgo(days, now);
  const { classified, total, unread } = await classifiedFailures(ctx, userId, since);
  const overall = new Map<BounceCause, number>();
  const perProvider = new Map<string, Map<BounceCause, number>>();
  const blockedIps = new Map<string, number>();
  const policyDomains = new Map<string, number>();
  for (const g of classified) {
    add(overall, g.cause, g.count);
    const provider = g.mailboxProvider || 'other';
    if (!perProvider.has(provider)) perProvider.set(provider, new Map());
    add(perProvider.get(provider)!, g.cause, g.count);
    if (g.cause === 'blocklist') {
      const named = ipsNamedIn(g.response);
      for (const ip of named.length > 0 ? named : g.sendingIp ? [g.sendingIp] : []) add(blockedIps, ip, g.count);
    }
    if (g.cause === 'policy' && g.domain) add(policyDomains, g.domain, g.count);
  }
  if (unread > 0) add(overall, 'other', unread);

  const [ips, domains] = await Promise.all([
    blockedIps.size > 0 ? listIpAddresses(ctx, userId) : Promise.resolve([]),
    policyDomains.size > 0 ? listUserDomains(ctx.db, userId) : Promise.resolve([]),
  ]);
  const monitored = new Map(ips.map((ip) => [ip.ipAddress, ip]));
  const registered = new Map(domains.map((d) => [d.domain.toLowerCase(), d]));
  return {
    days,
    since: since.toISOString(),
    total,
    causes: causeCounts(overall),
    byMailboxProvider: [...perProvider.entries()]
      .map(([mailboxProvider, counts]) => ({
        mailboxProvider,
        total: [...counts.values()].reduce((a, b) => a + b, 0),
        causes: causeCounts(counts),
      }))
      .sort((a, b) => b.total - a.total || a.mailboxProvider.localeCompare(b.mailboxProvider)),
    blocklistFindings: [...blockedIps.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([ip, failures]) => {
        const found = monitored.get(ip);
        return {
          ip,
          failures,
          monitored: found !== undefined,
          listedOn: found ? found.reputationDetails.filter((d) => d.listed && !d.ignored).map((d) => d.provider) : [],
          lastChecked: found?.lastChecked ?? null,
        };
      }),
    authenticationFindings: [...policyDomains.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([domain, failures]) => {
        const row = registeredParent(registered, domain);
        return {
          domain,
          failures,
          spfStatus: row?.spfStatus ?? null,
          dkimStatus: row?.dkimStatus ?? null,
          dmarcStatus: row?.dmarcStatus ?? null,
        };
      }),
  };
}

/** The user's domain that is `domain` or the nearest parent of it (mail from bounce.example.com is example.com's). */
function registeredParent<T>(registered: Map<string, T>, domain: string): T | undefined {
  for (let name = domain; name.includes('.'); name = name.slice(name.indexOf('.') + 1)) {
    const row = registered.get(name);
    if (row) return row;
  }
  return undefined;
}

/** The receiving servers' most frequent deferral answers of the classified groups. */
export function topDeferrals(
  groups: readonly (FailureGroup & { cause: BounceCause })[],
  n = 10,
): { response: string; count: number }[] {
  const byResponse = new Map<string, number>();
  for (const g of groups) if (g.eventType === 'deferred' && g.response) add(byResponse, g.response.trim(), g.count);
  return [...byResponse.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([response, count]) => ({ response, count }));
}

export { causeCounts };
