import type { AlertSeverity, AlertType } from '@contracts/alerts';
import {
  TIMELINE_EVENTS_MAX,
  domainTimelinePath,
  type CreateNoteRequest,
  type Diagnosis,
  type DomainTimeline,
  type Drop,
  type IpTimeline,
  type TimelineNote,
  type TimelineSeries,
} from '@contracts/timeline';
import { findUserDomain, listUserDomains } from '../insights/user-domains';
import type { Executor } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { detectChanges, ruleOf, type DetectedChange } from './change-detection';
import { diagnose, dropIdOf, WINDOW_HOURS } from './diagnosis';
import type { EvidenceEvent } from './evidence';
import {
  dnsEvents,
  dropEvents,
  integrationEvents,
  listingEvents,
  newSourceEvents,
  noteEvents,
  testEvents,
} from './timeline-events';
import {
  DAILY_SERIES,
  dmarcSeries,
  gmailSpamSeries,
  metricSeries,
  placementSeries,
  seriesStart,
  within,
} from './timeline-series';
import * as figures from '../insights/timeline-figures';
import * as repo from './timeline.repo';

/*
 * The deliverability timeline of a domain or a sending IP (ADR 035): the evidence on one time axis,
 * its drops, and each drop's likely causes. What other capabilities may use: the drops not yet
 * alerted (the alert evaluation raises them).
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Points before the window that the first drops of the window are measured against. */
const BASELINE_LOOKBACK_DAYS = 30;
/** A drop is alerted while it is this recent; older ones are history by the time they are found. */
export const DROP_ALERT_DAYS = 7;

export const DOMAIN_NOT_FOUND = 'Domain not found';
export const IP_NOT_FOUND = 'IP address not found';
export const NOTE_NOT_FOUND = 'Note not found';

interface Assembled {
  from: Date;
  to: Date;
  series: TimelineSeries[];
  events: EvidenceEvent[];
  drops: Drop[];
}

interface FoundChange {
  change: DetectedChange;
  daily: boolean;
}

/** The changes of every series in [from, to] (a daily series from the start of from's day). */
function findChanges(all: readonly TimelineSeries[], from: Date, to: Date): FoundChange[] {
  const found: FoundChange[] = [];
  for (const s of all) {
    const rule = ruleOf(s.key);
    if (!rule) continue;
    const daily = DAILY_SERIES.has(s.key);
    for (const change of detectChanges(s, rule)) {
      const at = Date.parse(change.at);
      if (at >= seriesStart(s.key, from) && at <= to.getTime()) found.push({ change, daily });
    }
  }
  return found;
}

/** The changes diagnosed with the events, newest first. */
function diagnoseAll(
  changes: readonly FoundChange[],
  events: readonly EvidenceEvent[],
  subject: string,
  now: Date,
): Drop[] {
  return changes
    .map(({ change, daily }) => diagnose({ change, daily, events, subject, now }))
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || a.series.localeCompare(b.series));
}

const dropLast = (e: EvidenceEvent) => (e.event.kind === 'drop' ? 1 : 0);

/** The answer's events: the window's, oldest first, at most TIMELINE_EVENTS_MAX (the newest kept). */
function eventsOf(events: readonly EvidenceEvent[], from: Date): EvidenceEvent[] {
  return (
    events
      .filter((e) => Date.parse(e.event.at) >= from.getTime())
      // At the same moment, a drop comes after the evidence it was found in (the test that showed it).
      .sort(
        (a, b) =>
          Date.parse(a.event.at) - Date.parse(b.event.at) ||
          dropLast(a) - dropLast(b) ||
          a.event.id.localeCompare(b.event.id),
      )
      .slice(-TIMELINE_EVENTS_MAX)
  );
}

interface Window {
  from: Date;
  now: Date;
  /** Series are read from 30 days before the window: its first drops need earlier points. */
  seriesRange: figures.Range;
  /** Events from 72 h before the window: they may explain its first drops. */
  eventRange: figures.Range;
}

function windowOf(days: number, now: Date): Window {
  const from = new Date(now.getTime() - days * DAY);
  return {
    from,
    now,
    seriesRange: { since: new Date(from.getTime() - BASELINE_LOOKBACK_DAYS * DAY), until: now },
    eventRange: { since: new Date(from.getTime() - WINDOW_HOURS * HOUR - DAY), until: now },
  };
}

type DomainRef = { id: number; domain: string };

/**
 * The domain's own bounce and complaint rates when its MTA events say which mail was its own;
 * otherwise the account's, from every source, labelled as such (ESP statistics name no domain).
 */
async function rateSeries(ex: Executor, userId: number, name: string, w: Window) {
  const own = await figures.listDomainEventDays(ex, userId, name, w.seriesRange);
  if (own.length > 0) return metricSeries(own);
  return metricSeries(await figures.listAccountMetricDays(ex, userId, w.seriesRange), 'all domains');
}

async function domainSeries(ex: Executor, userId: number, name: string, w: Window) {
  const tests = await figures.listDomainTests(ex, userId, name, w.seriesRange);
  const placements = await figures.listProviderPlacements(
    ex,
    tests.map((t) => t.id),
  );
  const series = [
    ...placementSeries(tests, placements),
    ...dmarcSeries(await figures.listDmarcDays(ex, userId, name, w.seriesRange)),
    ...(await rateSeries(ex, userId, name, w)),
    ...gmailSpamSeries(await figures.listGmailSpamDays(ex, userId, name, w.seriesRange)),
  ];
  return { series, tests, placements };
}

async function domainEvents(
  ex: Executor,
  userId: number,
  domain: DomainRef,
  w: Window,
  found: Awaited<ReturnType<typeof domainSeries>>,
) {
  const name = domain.domain.toLowerCase();
  const range = w.eventRange;
  const ips = await figures.listSendingIps(ex, userId, name, range);
  return [
    ...dnsEvents(await figures.listDnsChanges(ex, userId, domain.id, range), name),
    ...listingEvents(
      await figures.listListings(ex, userId, { domainId: domain.id, ipIds: ips.map((ip) => ip.id) }, range),
      ips,
      name,
      range,
    ),
    ...newSourceEvents(await figures.listNewFailingSources(ex, userId, name, range), name, w.now),
    ...testEvents(
      found.tests.filter((t) => t.completedAt >= range.since),
      found.placements,
    ),
    ...integrationEvents(await repo.listIntegrationErrors(ex, userId, range)),
    ...noteEvents(await repo.listNotes(ex, userId, domain.id, range)),
  ];
}

async function assembleDomain(
  ex: Executor,
  userId: number,
  domain: DomainRef,
  days: number,
  now: Date,
): Promise<Assembled> {
  const w = windowOf(days, now);
  const found = await domainSeries(ex, userId, domain.domain.toLowerCase(), w);
  const events = await domainEvents(ex, userId, domain, w, found);
  const drops = diagnoseAll(findChanges(found.series, w.from, now), events, domain.domain.toLowerCase(), now);
  return {
    from: w.from,
    to: now,
    series: within(found.series, w.from),
    events: [...events, ...dropEvents(drops, null)],
    drops,
  };
}

async function ownDomain(ex: Executor, userId: number, domainId: number) {
  const row = await findUserDomain(ex, userId, domainId);
  if (!row) throw new AppError('not_found', DOMAIN_NOT_FOUND);
  return row;
}

export async function domainTimeline(
  ex: Executor,
  userId: number,
  domainId: number,
  days: number,
  now = new Date(),
): Promise<DomainTimeline> {
  const domain = await ownDomain(ex, userId, domainId);
  const assembled = await assembleDomain(ex, userId, domain, days, now);
  return {
    domain: { id: domain.id, name: domain.domain },
    from: assembled.from.toISOString(),
    to: assembled.to.toISOString(),
    series: assembled.series,
    events: eventsOf(assembled.events, assembled.from).map((e) => e.event),
  };
}

export async function domainDiagnosis(
  ex: Executor,
  userId: number,
  domainId: number,
  days: number,
  now = new Date(),
): Promise<Diagnosis> {
  const domain = await ownDomain(ex, userId, domainId);
  return { drops: (await assembleDomain(ex, userId, domain, days, now)).drops };
}

/** A sending IP: its bounce and complaint rates (MTA events name the IP) and its listings. */
export async function ipTimeline(
  ex: Executor,
  userId: number,
  ipId: number,
  days: number,
  now = new Date(),
): Promise<IpTimeline> {
  const ip = await figures.findUserIp(ex, userId, ipId);
  if (!ip) throw new AppError('not_found', IP_NOT_FOUND);
  const { from, seriesRange, eventRange } = windowOf(days, now);
  const all = metricSeries(await figures.listIpMetricDays(ex, userId, ip.ipAddress, seriesRange));
  const events = listingEvents(
    await figures.listListings(ex, userId, { ipIds: [ip.id] }, eventRange),
    [ip],
    null,
    eventRange,
  );
  const drops = diagnoseAll(findChanges(all, from, now), events, ip.ipAddress, now);
  return {
    ip: { id: ip.id, address: ip.ipAddress },
    from: from.toISOString(),
    to: now.toISOString(),
    series: within(all, from),
    events: eventsOf([...events, ...dropEvents(drops, null)], from).map((e) => e.event),
  };
}

export async function addNote(
  ex: Executor,
  userId: number,
  domainId: number,
  body: CreateNoteRequest,
): Promise<TimelineNote> {
  const domain = await ownDomain(ex, userId, domainId);
  const row = await repo.insertNote(ex, {
    userId,
    domainId: domain.id,
    at: body.at ? new Date(body.at) : new Date(),
    text: body.text,
  });
  return { id: row.id, at: row.at.toISOString(), text: row.text };
}

export async function removeNote(ex: Executor, userId: number, domainId: number, noteId: number): Promise<void> {
  await ownDomain(ex, userId, domainId);
  if (!(await repo.deleteNote(ex, userId, domainId, noteId))) throw new AppError('not_found', NOTE_NOT_FOUND);
}

// ---------------------------------------------------------------------------------------------
// The drop alert

/** The alert category of each kind of drop (ADR 025's categories). */
function alertTypeOf(series: string): AlertType {
  if (series.startsWith('placement:')) return 'deliverability_drop';
  if (series === 'dmarc:pass') return 'authentication_failure';
  if (series === 'bounce:rate') return 'bounce';
  return 'spam';
}

/** Critical when the change is at least twice what makes a drop, a warning otherwise. */
function severityOf(drop: Drop): AlertSeverity {
  const rule = ruleOf(drop.series);
  return rule && Math.abs(drop.after - drop.before) >= 2 * rule.minPoints ? 'critical' : 'warning';
}

export interface DropAlert {
  type: AlertType;
  severity: AlertSeverity;
  title: string;
  message: string;
  domain: string;
  metadata: {
    link: string;
    dropId: string;
    dropIds: string[];
    domainId: number;
    series: string;
    before: number;
    after: number;
  };
}

/**
 * The user's drops of the last DROP_ALERT_DAYS not alerted yet, each claimed so it is never alerted
 * again (drop_alerts, in the caller's transaction): the alert evaluation raises one alert for each
 * moment. Series that dropped at the same moment (a test whose Gmail seeds and overall placement
 * both fell) are one alert, worded by the largest change; its metadata lists every drop.
 */
export async function claimNewDrops(ex: Executor, userId: number, now = new Date()): Promise<DropAlert[]> {
  const alerts: DropAlert[] = [];
  for (const domain of await listUserDomains(ex, userId)) {
    // The series alone tell whether there is a drop to alert; the events are read only then.
    const w = windowOf(DROP_ALERT_DAYS, now);
    const found = await domainSeries(ex, userId, domain.domain.toLowerCase(), w);
    const changes = findChanges(found.series, w.from, now);
    const alerted = await repo.alertedDrops(
      ex,
      domain.id,
      changes.map(({ change }) => dropIdOf(change)),
    );
    const fresh = changes.filter(({ change }) => !alerted.has(dropIdOf(change)));
    if (fresh.length === 0) continue;
    const drops = diagnoseAll(
      fresh,
      await domainEvents(ex, userId, domain, w, found),
      domain.domain.toLowerCase(),
      now,
    );
    const moments = new Map<string, Drop[]>();
    for (const drop of drops) moments.set(drop.at, [...(moments.get(drop.at) ?? []), drop]);
    // Oldest first, so the newest drop's alert is the newest alert.
    for (const [, together] of [...moments.entries()].sort(([a], [b]) => Date.parse(a) - Date.parse(b))) {
      const fresh: Drop[] = [];
      for (const drop of together) if (await repo.claimDropAlert(ex, userId, domain.id, drop.id)) fresh.push(drop);
      if (fresh.length === 0) continue;
      const [main] = [...fresh].sort((a, b) => Math.abs(b.after - b.before) - Math.abs(a.after - a.before));
      alerts.push({
        type: alertTypeOf(main!.series),
        severity: severityOf(main!),
        title: `${main!.label} ${ruleOf(main!.series)?.bad === 'rise' ? 'rose' : 'fell'} for ${domain.domain}`,
        message: main!.summary,
        domain: domain.domain,
        metadata: {
          link: domainTimelinePath(domain.id),
          dropId: main!.id,
          dropIds: fresh.map((d) => d.id),
          domainId: domain.id,
          series: main!.series,
          before: main!.before,
          after: main!.after,
        },
      });
    }
  }
  return alerts;
}
