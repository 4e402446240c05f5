import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { CheckStatus, DomainChecks, SendingIpReverseDns } from '@contracts/domains';
import type { WebhookEvent } from '@contracts/webhooks';
import { queueAlertEvaluation, raiseAlert, type NewAlert } from '../alerts/alerts.service';
import type { AppContext } from '../platform/context';
import { parseTags } from './checks/tag-list';
import { domainStatus, runDomainChecks, type CheckTarget } from './checks/run-checks';
import { dmarcPassingSenderIps, dmarcSenderIps, inboxTestSenderIps } from '../insights/sender-ips';
import { normaliseIp } from '../platform/dns/ip-address';
import { DnsLookupError } from '../platform/dns/resolver';
import { AppError } from '../platform/errors';
import { replayUnroutedFor } from '../platform/smtp/inbound.repo';
import { queueWebhookDeliveries, recordWebhookEvent } from '../webhooks/webhooks.service';
import { dnsChanges } from './dns-changes';
import { recordDnsChanges } from './dns-changes.repo';
import { findDomainById, saveDomainChecks, type DomainCheckOutcome, type DomainRow } from './domains.repo';

/** An alert about one domain, before it is addressed to its owner. */
type DomainAlert = Omit<NewAlert, 'userId' | 'domain'>;

/**
 * Runs every check on one domain, stores the outcome and raises its alerts (ADR 020): after the
 * first check, each SPF, DKIM or DMARC record published, removed or changed, said in words. Whether
 * the records pass is a condition the alert evaluation keeps (one alert while they fail, resolved
 * when they pass): it is queued when the stored statuses changed.
 */
export async function recheckDomain(ctx: Pick<AppContext, 'db' | 'dns' | 'jobs'>, row: DomainRow): Promise<DomainRow> {
  const { db, dns } = ctx;
  let checks: DomainChecks;
  try {
    const senders = await knownSenderIps(ctx, row);
    checks = await runDomainChecks(dns, { ...row, lastKnown: row.checks, ...senders });
  } catch (err) {
    if (err instanceof DnsLookupError) {
      throw new AppError(
        'unavailable',
        `DNS lookups for ${row.domain} failed (${err.code}); nothing was changed. Try again in a minute.`,
      );
    }
    throw err;
  }
  const next = {
    status: domainStatus(checks),
    // Ownership is proven at every check, not once: a domain sold or handed over stops sending its
    // reports to a former owner as soon as the record is gone (a failed lookup throws above and changes nothing).
    isVerified: checks.ownershipVerified,
    spfRecord: checks.spf.record,
    dkimRecord: checks.dkim.record,
    dmarcRecord: checks.dmarc.record,
    spfStatus: checks.spf.status,
    dkimStatus: checks.dkim.status,
    dmarcStatus: checks.dmarc.status,
    checks,
    lastCheckedAt: new Date(checks.checkedAt),
  } satisfies DomainCheckOutcome;
  const { updated, statusChanged, deliveries } = await db.transaction(async (tx) => {
    // One stored outcome of a domain at a time: Verify DNS and the hourly job can finish together,
    // and each must compare with what the other stored, or both would raise the same alerts.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('domain-checks'), ${row.id})`);
    const previous = await findDomainById(tx, row.id);
    // deleted meanwhile: nothing to store, nobody to tell
    if (!previous) return { updated: row, statusChanged: false, deliveries: [] };
    const saved = await saveDomainChecks(tx, row.id, next);
    // Reports mailed before the owner proved ownership were kept aside (ADR 010): now they can go to them.
    if (!previous.isVerified && next.isVerified) await replayUnroutedFor(tx, row.domain);
    const alerts = domainAlerts(previous, next, checks);
    for (const alert of alerts) await raiseAlert(tx, { ...alert, userId: row.userId, domain: row.domain });
    // The timeline's history of the records (ADR 035): kept even when the user deletes the alerts.
    await recordDnsChanges(tx, previous, dnsChanges(previous, checks, alerts));
    const deliveries: number[] = [];
    for (const event of domainWebhookEvents(previous, next, checks))
      deliveries.push(...(await recordWebhookEvent(tx, row.userId, event.type, event.data)));
    const changed = (['status', 'spfStatus', 'dkimStatus', 'dmarcStatus'] as const).some(
      (field) => previous[field] !== next[field],
    );
    return { updated: saved, statusChanged: changed || previous.lastCheckedAt === null, deliveries };
  });
  await queueWebhookDeliveries(ctx.jobs, deliveries);
  if (statusChanged) await queueAlertEvaluation(ctx.jobs, row.userId);
  return updated;
}

const SENDER_IP_DAYS = 30;
const SENDER_IP_LIMIT = 10;
/** Own sending IPs whose reverse DNS each check confirms: three lookups each, so a few of the busiest. */
const OWN_SENDER_IP_LIMIT = 5;

/**
 * The sending IPs the product has seen for the domain over the last 30 days. `senderIps`: those an SPF record that
 * depends on the sender is evaluated for (ADR 037): the connecting IPs of the domain's inbox tests (at most half, so a
 * few test messages are not crowded out by report volume), then its busiest DMARC report sources. `ownSenderIps`:
 * those whose reverse DNS the compliance rules ask about: inbox-test senders, then DMARC sources that passed DMARC.
 */
async function knownSenderIps(
  { db }: Pick<AppContext, 'db'>,
  row: DomainRow,
): Promise<Pick<CheckTarget, 'senderIps' | 'ownSenderIps'>> {
  const [tested, reported, passing] = await Promise.all([
    inboxTestSenderIps(db, row.userId, row.domain, SENDER_IP_DAYS, SENDER_IP_LIMIT),
    dmarcSenderIps(db, row.userId, row.domain, SENDER_IP_DAYS, SENDER_IP_LIMIT),
    dmarcPassingSenderIps(db, row.userId, row.domain, SENDER_IP_DAYS, OWN_SENDER_IP_LIMIT),
  ]);
  const ips = [...tested.slice(0, SENDER_IP_LIMIT / 2), ...reported, ...tested].map((s) => s.ip);
  // As for SPF: a few inbox-test senders first, so report volume does not crowd them out.
  const own = new Map<string, SendingIpReverseDns['seenIn']>();
  const addOwn = (seenIn: SendingIpReverseDns['seenIn']) => (sender: { ip: string }) => {
    const ip = normaliseIp(sender.ip);
    if (ip !== null && !own.has(ip)) own.set(ip, seenIn);
  };
  tested.slice(0, 2).forEach(addOwn('inbox-test'));
  passing.forEach(addOwn('dmarc-reports'));
  tested.forEach(addOwn('inbox-test'));
  return {
    senderIps: [...new Set(ips)].slice(0, SENDER_IP_LIMIT),
    ownSenderIps: [...own].slice(0, OWN_SENDER_IP_LIMIT).map(([ip, seenIn]) => ({ ip, seenIn })),
  };
}

type Outcome = Pick<
  DomainRow,
  'status' | 'isVerified' | 'spfRecord' | 'dmarcRecord' | 'spfStatus' | 'dkimStatus' | 'dmarcStatus'
> & {
  dkimRecord: string | null;
};

/** Every alert one check raises, given what the check before it stored. */
export function domainAlerts(previous: DomainRow, next: Outcome, checks: DomainChecks): DomainAlert[] {
  const domain = previous.domain;
  const alerts: DomainAlert[] = [];
  if (previous.isVerified && !next.isVerified) {
    alerts.push({
      type: 'dns_changes',
      severity: 'error',
      title: `Ownership of ${domain} is no longer verified`,
      message: `The ownership record of ${domain} is gone, so its DMARC reports are no longer routed to you. Publish it again to resume.`,
      metadata: { record: 'ownership' },
    });
  }
  // A first check has nothing to compare records with: what it finds wrong is the evaluation's
  // authentication condition (auth-records:<domain>), as is every later status change.
  if (previous.lastCheckedAt !== null) {
    alerts.push(...spfAlerts(domain, previous.spfRecord, next.spfRecord));
    // Keys are compared selector by selector; a row stored without its checks (none in practice) by its one record.
    const before = previous.checks ? dkimKeys(previous.checks) : recordKeys(previous.dkimRecord);
    const after = previous.checks ? dkimKeys(checks) : recordKeys(next.dkimRecord);
    alerts.push(...dkimAlerts(domain, before, after));
    alerts.push(...dmarcAlerts(domain, previous.dmarcRecord, next.dmarcRecord));
  }
  return alerts;
}

const RECORD_LABEL = { spf: 'SPF', dkim: 'DKIM', dmarc: 'DMARC' } as const;

/**
 * The webhook events of one check: domain.verified when ownership is newly proven, and
 * dns.validation_failed for each record that starts failing (missing or invalid, or failing in
 * another way than before), once per change, not at every hourly check while it lasts.
 */
export function domainWebhookEvents(
  previous: DomainRow,
  next: Outcome,
  checks: DomainChecks,
): { type: WebhookEvent; data: unknown }[] {
  const domain = previous.domain;
  const events: { type: WebhookEvent; data: unknown }[] = [];
  if (!previous.isVerified && next.isVerified)
    events.push({ type: 'domain.verified', data: { domain, verified_at: checks.checkedAt } });
  for (const record of ['spf', 'dkim', 'dmarc'] as const) {
    const status: CheckStatus = checks[record].status;
    if (status === 'valid' || previous[`${record}Status`] === status) continue;
    const label = RECORD_LABEL[record];
    const problem = checks[record].findings.find((f) => f.severity === 'error') ?? checks[record].findings[0];
    events.push({
      type: 'dns.validation_failed',
      data: {
        domain,
        record_type: label,
        error: status === 'missing' ? `No ${label} record found` : `The ${label} record is invalid`,
        details: problem?.message ?? null,
        failed_at: checks.checkedAt,
      },
    });
  }
  return events;
}

// ---------------------------------------------------------------------------------------------
// Records: said in words, never pasted whole (a DKIM key alone is hundreds of characters)

/** Published (good news), removed or changed; null when the record stayed as it was. */
function recordEvent(before: string | null, after: string | null): 'published' | 'removed' | 'changed' | null {
  if (before === after) return null;
  if (before === null) return 'published';
  if (after === null) return 'removed';
  return 'changed';
}

/** A list read aloud: at most `max` items, then how many more. */
function listed(items: string[], max = 6): string {
  if (items.length <= max) return items.join(', ');
  return `${items.slice(0, max - 1).join(', ')} and ${items.length - max + 1} more`;
}

function spfTerms(record: string): string[] {
  return record.trim().split(/\s+/).slice(1); // without v=spf1
}

/** What makes two terms "the same term, changed": a modifier's name, or a mechanism without its qualifier (~all / -all). */
function spfTermKey(term: string): string {
  const bare = term.replace(/^[+\-~?]/, '').toLowerCase();
  const modifier = /^([a-z][a-z0-9._-]*)=/.exec(bare);
  return modifier ? `${modifier[1]}=` : bare;
}

/**
 * The changes between two SPF records, in words: "~all became -all", "added include:…", "removed
 * ip4:…"; empty when only spacing differs (receivers read the same record).
 */
export function spfChanges(before: string, after: string): string[] {
  const old = spfTerms(before);
  const now = spfTerms(after);
  const removed = old.filter((t) => !now.includes(t));
  const added = now.filter((t) => !old.includes(t));
  const changes: string[] = [];
  for (const term of [...removed]) {
    const replacement = added.find((t) => spfTermKey(t) === spfTermKey(term));
    if (!replacement) continue;
    changes.push(`${term} became ${replacement}`);
    removed.splice(removed.indexOf(term), 1);
    added.splice(added.indexOf(replacement), 1);
  }
  if (added.length) changes.push(`added ${listed(added)}`);
  if (removed.length) changes.push(`removed ${listed(removed)}`);
  // Terms are evaluated left to right, so the order alone is a change.
  if (changes.length === 0 && old.join(' ') !== now.join(' ')) changes.push('the same terms now come in another order');
  return changes;
}

function spfAlerts(domain: string, before: string | null, after: string | null): DomainAlert[] {
  const event = recordEvent(before, after);
  if (!event) return [];
  const metadata = { record: 'SPF', before, after };
  if (event === 'published')
    return [
      {
        type: 'dns_changes',
        severity: 'info',
        title: `SPF record published for ${domain}`,
        message: `${domain} now publishes an SPF record: ${listed(spfTerms(after!))}.`,
        metadata,
      },
    ];
  if (event === 'removed')
    return [
      {
        type: 'dns_changes',
        severity: 'warning',
        title: `SPF record removed for ${domain}`,
        message: `The SPF record of ${domain} is gone (it had ${listed(spfTerms(before!))}): receivers can no longer tell which servers may send for it.`,
        metadata,
      },
    ];
  const changes = spfChanges(before!, after!);
  if (changes.length === 0) return [];
  return [
    {
      type: 'dns_changes',
      severity: 'warning',
      title: `SPF record changed for ${domain}`,
      message: `The SPF record of ${domain} changed: ${changes.join('; ')}.`,
      metadata,
    },
  ];
}

function dmarcTags(record: string): Record<string, string> {
  const { v: _version, ...tags } = parseTags(record);
  return tags;
}

const tagList = (tags: Record<string, string>) => listed(Object.entries(tags).map(([k, v]) => `${k}=${v}`));

/** Tag by tag: "p went from none to reject", "rua added (…)", "pct removed (was 50)"; empty when the tags are the same. */
export function tagChanges(old: Record<string, string>, now: Record<string, string>): string[] {
  const changes: string[] = [];
  for (const [tag, value] of Object.entries(now)) {
    if (!(tag in old)) changes.push(`${tag} added (${value})`);
    else if (old[tag] !== value) changes.push(`${tag} went from ${old[tag]} to ${value}`);
  }
  for (const [tag, value] of Object.entries(old)) if (!(tag in now)) changes.push(`${tag} removed (was ${value})`);
  return changes;
}

function dmarcAlerts(domain: string, before: string | null, after: string | null): DomainAlert[] {
  const event = recordEvent(before, after);
  if (!event) return [];
  const metadata = { record: 'DMARC', before, after };
  if (event === 'published')
    return [
      {
        type: 'dns_changes',
        severity: 'info',
        title: `DMARC record published for ${domain}`,
        message: `${domain} now publishes a DMARC record: ${tagList(dmarcTags(after!))}.`,
        metadata,
      },
    ];
  if (event === 'removed')
    return [
      {
        type: 'dns_changes',
        severity: 'warning',
        title: `DMARC record removed for ${domain}`,
        message: `The DMARC record of ${domain} is gone (it had ${tagList(dmarcTags(before!))}): receivers no longer apply your policy or send you reports.`,
        metadata,
      },
    ];
  // Tags in another order or with other spacing are the same record to a receiver.
  const changes = tagChanges(dmarcTags(before!), dmarcTags(after!));
  if (changes.length === 0) return [];
  return [
    {
      type: 'dns_changes',
      severity: 'warning',
      title: `DMARC record changed for ${domain}`,
      message: `The DMARC record of ${domain} changed: ${changes.join('; ')}.`,
      metadata,
    },
  ];
}

// DKIM: one key per selector, told apart by a short fingerprint

/** What an alert says about one DKIM key: never the key itself. */
export interface DkimKeySummary {
  keyType: string;
  keyBits: number | null;
  /** First 16 hex digits of the SHA-256 of the key's bytes (p= decoded); null for a revoked key (empty p=). */
  fingerprint: string | null;
}

interface DkimKey extends DkimKeySummary {
  /** The selector; empty when a row stored only its record. */
  selector: string;
  /** The record's tags other than the key, to tell a tag-only change. */
  otherTags: Record<string, string>;
}

/** SHA-256 of the public key's bytes as published in p=, first 16 hex digits: enough to tell keys apart at a glance. */
export function keyFingerprint(base64Key: string): string {
  return createHash('sha256')
    .update(Buffer.from(base64Key.replace(/\s+/g, ''), 'base64'))
    .digest('hex')
    .slice(0, 16);
}

function keyOf(selector: string, record: string, keyBits: number | null): DkimKey {
  const { p = '', ...otherTags } = parseTags(record);
  const keyType = (otherTags.k ?? 'rsa').toLowerCase();
  return { selector, keyType, keyBits, fingerprint: p.trim() ? keyFingerprint(p) : null, otherTags };
}

function dkimKeys(checks: DomainChecks): Map<string, DkimKey> {
  return new Map(
    checks.dkim.selectors.filter((s) => s.record).map((s) => [s.selector, keyOf(s.selector, s.record!, s.keyBits)]),
  );
}

function recordKeys(record: string | null): Map<string, DkimKey> {
  return record ? new Map([['', keyOf('', record, null)]]) : new Map();
}

/** "a 2048-bit RSA key (SHA-256 fingerprint 3f9a0c1d2e4b5a69)", "a revoked key (empty p=)". */
export function describeKey(key: DkimKeySummary): string {
  if (!key.fingerprint) return 'a revoked key (empty p=)';
  const kind =
    key.keyType === 'rsa'
      ? key.keyBits
        ? `a ${key.keyBits}-bit RSA key`
        : 'an RSA key of unreadable size'
      : key.keyType === 'ed25519'
        ? 'an Ed25519 key'
        : `a key of unknown type k=${key.keyType}`;
  return `${kind} (SHA-256 fingerprint ${key.fingerprint})`;
}

const summary = (key: DkimKey | undefined): DkimKeySummary | null =>
  key ? { keyType: key.keyType, keyBits: key.keyBits, fingerprint: key.fingerprint } : null;

function dkimAlerts(domain: string, before: Map<string, DkimKey>, after: Map<string, DkimKey>): DomainAlert[] {
  const alerts: DomainAlert[] = [];
  for (const selector of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(selector);
    const now = after.get(selector);
    const where = selector ? `at selector ${selector}` : 'of the domain';
    const metadata = { record: 'DKIM', selector: selector || null, before: summary(old), after: summary(now) };
    if (!old && now) {
      alerts.push({
        type: 'dns_changes',
        severity: 'info',
        title: `DKIM record published for ${domain}`,
        message: `A DKIM key was published ${where}: ${describeKey(now)}.`,
        metadata,
      });
    } else if (old && !now) {
      alerts.push({
        type: 'dns_changes',
        severity: 'warning',
        title: `DKIM record removed for ${domain}`,
        message: `The DKIM key ${where} is gone (it was ${describeKey(old)}): mail signed with it now fails DKIM.`,
        metadata,
      });
    } else if (old && now) {
      const sameKey = old.fingerprint === now.fingerprint && old.keyType === now.keyType;
      const changes = tagChanges(old.otherTags, now.otherTags);
      if (sameKey && changes.length === 0) continue; // spacing only: nothing a receiver sees
      alerts.push({
        type: 'dns_changes',
        severity: 'warning',
        title: `DKIM record changed for ${domain}`,
        message: sameKey
          ? `The DKIM record ${where} changed (${changes.join('; ')}); its key is the same, ${describeKey(now)}.`
          : `The DKIM key ${where} changed from ${describeKey(old)} to ${describeKey(now)}.`,
        metadata,
      });
    }
  }
  return alerts;
}
