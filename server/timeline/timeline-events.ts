import { pluginById } from '@content/integrations';
import type { Drop, TimelineSeverity } from '@contracts/timeline';
import { dayStart } from '@contracts/utc-day';
import { findBlocklist } from '../engine/blocklists/dnsbl';
import { ruleOf } from './change-detection';
import { count, dayWords, percentWords, type EvidenceEvent } from './evidence';
import type {
  DnsChangeRow,
  IpRow,
  ListingRow,
  NewSource,
  ProviderPlacement,
  TestRow,
} from '../insights/timeline-figures';
import type { IntegrationErrorRow, NoteRow } from './timeline.repo';

/*
 * The events of a timeline, each with the facts the diagnosis scores it on. Links go to the page
 * where the user acts on the event.
 */

const RECORD_LABEL = { spf: 'SPF', dkim: 'DKIM', dmarc: 'DMARC', mx: 'MX' } as const;

export function dnsEvents(rows: readonly DnsChangeRow[], domain: string): EvidenceEvent[] {
  return rows.map((row) => {
    const label = RECORD_LABEL[row.record];
    const failing = row.statusAfter !== null && row.statusAfter !== 'valid';
    const valueChanged = row.before !== row.after;
    const title = !valueChanged
      ? failing
        ? `${label} check failed (${row.statusAfter})`
        : `${label} check passes again`
      : row.before === null
        ? `${label} record published`
        : row.after === null
          ? `${label} record removed`
          : `${label} record changed`;
    // DKIM records are whole keys, hundreds of characters: their words give fingerprints instead.
    const values =
      valueChanged && row.record !== 'dkim' ? `${row.before ?? '(none)'} → ${row.after ?? '(none)'}. ` : '';
    const severity: TimelineSeverity = failing ? 'critical' : valueChanged ? 'warning' : 'info';
    return {
      event: {
        id: `dns:${row.id}`,
        at: row.observedAt.toISOString(),
        kind: valueChanged || !failing ? 'dns_change' : 'dns_check_failed',
        title,
        detail: `${values}${row.summary}`,
        severity,
        link: '/domains',
      },
      evidence: { type: 'dns', record: row.record, summary: row.summary, domain },
    };
  });
}

/** Listings and delistings; `ips` names the IP of an IP listing, `domain` the domain's own. */
export function listingEvents(
  rows: readonly ListingRow[],
  ips: readonly IpRow[],
  domain: string | null,
  range: { since: Date; until: Date },
): EvidenceEvent[] {
  const address = new Map(ips.map((ip) => [ip.id, ip.ipAddress]));
  const inRange = (at: Date) => at >= range.since && at <= range.until;
  return rows.flatMap((row) => {
    const list = findBlocklist(row.listId);
    const listName = list?.name ?? row.listId;
    const target =
      row.ipAddressId !== null ? (address.get(row.ipAddressId) ?? 'an IP address') : (domain ?? 'the domain');
    // Spamhaus PBL answers mean "an end-user address": a policy, not a judgement on the mail, scored as a minor list.
    const policyOnly = row.reason?.startsWith('PBL') ?? false;
    const tier = policyOnly ? 3 : (list?.tier ?? 3);
    const events: EvidenceEvent[] = [];
    if (inRange(row.listedAt)) {
      events.push({
        event: {
          id: `listing:${row.id}`,
          at: row.listedAt.toISOString(),
          kind: 'listing',
          title: `${target} listed on ${listName}`,
          detail: row.reason,
          severity: tier === 1 ? 'critical' : tier === 2 ? 'warning' : 'info',
          link: '/blacklist-monitoring',
        },
        evidence: {
          type: 'listing',
          listId: row.listId,
          listName,
          zone: list?.zone ?? row.listId,
          tier,
          target,
          removalUrl: list?.removalUrl ?? 'the list’s own website',
          reason: row.reason,
        },
      });
    }
    if (row.delistedAt && inRange(row.delistedAt)) {
      events.push({
        event: {
          id: `delisting:${row.id}`,
          at: row.delistedAt.toISOString(),
          kind: 'delisting',
          title: `${target} removed from ${listName}`,
          detail: null,
          severity: 'info',
          link: '/blacklist-monitoring',
        },
        evidence: { type: 'none' },
      });
    }
    return events;
  });
}

export function newSourceEvents(rows: readonly NewSource[], domain: string, now: Date): EvidenceEvent[] {
  return rows.map((row) => ({
    event: {
      id: `source:${row.ip}@${row.day}`,
      at: dayStart(row.day).toISOString(),
      kind: 'dmarc_new_source',
      title: `New source failing DMARC: ${row.ip}`,
      detail: `${count(row.failed)} of ${count(row.total)} messages from ${row.ip} failed DMARC on ${dayWords(dayStart(row.day), now)}, the first day it appeared in the reports for ${domain}.`,
      severity: row.failed / row.total >= 0.5 ? 'critical' : 'warning',
      link: '/domains',
    },
    evidence: { type: 'dmarc_new_source', ip: row.ip, failed: row.failed, total: row.total, domain },
  }));
}

export function testEvents(tests: readonly TestRow[], placements: readonly ProviderPlacement[]): EvidenceEvent[] {
  return tests.map((test) => {
    const rate = test.totalSeeds > 0 ? (test.inboxCount / test.totalSeeds) * 100 : 0;
    const providers = placements
      .filter((p) => p.testId === test.id)
      .sort((a, b) => a.provider.localeCompare(b.provider))
      .map((p) => `${p.provider} ${p.inbox}/${p.seeds}`);
    return {
      event: {
        id: `test:${test.id}`,
        at: test.completedAt.toISOString(),
        kind: 'placement_test',
        title: `Inbox placement test #${test.id}: ${test.inboxCount} of ${test.totalSeeds} in the inbox (${percentWords(rate)})`,
        detail: providers.length ? `In the inbox, by provider: ${providers.join(', ')}.` : null,
        severity: rate >= 80 ? 'info' : rate >= 50 ? 'warning' : 'critical',
        link: '/inbox-placement',
      },
      evidence: { type: 'none' },
    };
  });
}

export function integrationEvents(rows: readonly IntegrationErrorRow[]): EvidenceEvent[] {
  return rows.map((row) => {
    const name = pluginById(row.provider)?.name ?? row.provider;
    return {
      event: {
        id: `integration:${row.id}`,
        at: row.at.toISOString(),
        kind: 'integration',
        title: row.error ? `${name}: sync failed` : `${name}: syncing again`,
        // Figures missing for the days a source failed are a gap in the series, not a drop.
        detail: row.error,
        severity: row.error ? 'warning' : 'info',
        link: '/integrations',
      },
      evidence: { type: 'none' },
    };
  });
}

export function noteEvents(rows: readonly NoteRow[]): EvidenceEvent[] {
  return rows.map((row) => ({
    event: {
      id: `note:${row.id}`,
      at: row.at.toISOString(),
      kind: 'note',
      title: row.text,
      detail: null,
      severity: 'info',
      link: null,
    },
    evidence: { type: 'note', text: row.text },
  }));
}

export function dropEvents(drops: readonly Drop[], link: string | null): EvidenceEvent[] {
  return drops.map((drop) => {
    const rose = ruleOf(drop.series)?.bad === 'rise';
    return {
      event: {
        id: `drop:${drop.id}`,
        at: drop.at,
        kind: 'drop',
        title: `${drop.label} ${rose ? 'rose' : 'fell'} to ${percentWords(drop.after)}`,
        detail: drop.summary,
        severity: 'critical',
        link,
      },
      evidence: { type: 'none' },
    };
  });
}
