import { NO_CLEAR_CAUSE, type Drop, type DropCause } from '@contracts/timeline';
import type { DetectedChange } from './change-detection';
import { count, dayWords, momentWords, percentWords, type Evidence, type EvidenceEvent } from './evidence';

/*
 * The diagnosis of a drop (ADR 035): each event of the 72 hours before it is scored by how strongly
 * its kind explains that kind of drop (the table below) times how long before the drop it happened
 * (a half-life of 48 hours). Events scoring at least CAUSE_THRESHOLD are the causes, highest first.
 */

export const WINDOW_HOURS = 72;
export const HALF_LIFE_HOURS = 48;
export const CAUSE_THRESHOLD = 0.25;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The kinds of drop the table tells apart. */
export type DropKind =
  'placement_big' | 'placement_other' | 'placement_all' | 'dmarc' | 'bounce' | 'complaint' | 'gmail_spam';

/** The mailbox providers that filter mostly on their own data and on Spamhaus, not on the other lists. */
const BIG_PROVIDERS = /gmail|google|outlook|hotmail|microsoft|live|msn|office ?365|yahoo|aol/i;

export function dropKindOf(seriesKey: string): DropKind | undefined {
  if (seriesKey === 'placement:all') return 'placement_all';
  if (seriesKey.startsWith('placement:'))
    return BIG_PROVIDERS.test(seriesKey.slice('placement:'.length)) ? 'placement_big' : 'placement_other';
  if (seriesKey === 'dmarc:pass') return 'dmarc';
  if (seriesKey === 'bounce:rate') return 'bounce';
  if (seriesKey === 'complaint:rate') return 'complaint';
  if (seriesKey === 'gmail:spam') return 'gmail_spam';
  return undefined;
}

type Row = Record<DropKind, number>;
const row = (
  placementBig: number,
  placementOther: number,
  placementAll: number,
  dmarc: number,
  bounce: number,
  complaint: number,
  gmailSpam: number,
): Row => ({
  placement_big: placementBig,
  placement_other: placementOther,
  placement_all: placementAll,
  dmarc,
  bounce,
  complaint,
  gmail_spam: gmailSpam,
});

/**
 * How strongly each kind of event explains each kind of drop, 0 to 1. Spamhaus is used by every
 * large mailbox provider; the other tier-1 lists (Barracuda, SpamCop, SURBL, URIBL) by corporate
 * filters far more than by Gmail, Microsoft or Yahoo. An SPF or DKIM change breaks authentication
 * (DMARC first, then placement); a DMARC record change alters what happens to failing mail; a new
 * source failing DMARC is spoofing or a forgotten service. A listing says nothing about complaints,
 * a record change little about them. A note is the user's own word about anything: weak everywhere.
 */
export const SCORE_TABLE = {
  //                      placement: big  other  all   dmarc bounce complaint gmail spam
  listingSpamhaus: row(0.95, 0.95, 0.9, 0, 0.85, 0.1, 0.3),
  listingTier1: row(0.4, 0.75, 0.6, 0, 0.7, 0.1, 0.2),
  listingTier2: row(0.15, 0.4, 0.3, 0, 0.4, 0.05, 0.1),
  listingTier3: row(0.05, 0.15, 0.1, 0, 0.15, 0, 0.05),
  spfOrDkim: row(0.7, 0.7, 0.7, 0.9, 0.5, 0.05, 0.2),
  dmarcRecord: row(0.5, 0.5, 0.5, 0.6, 0.6, 0.05, 0.2),
  mx: row(0.1, 0.1, 0.1, 0.1, 0.1, 0, 0),
  dmarcNewSource: row(0.3, 0.3, 0.3, 0.8, 0.2, 0.2, 0.3),
  note: row(0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3),
} as const;

function tableRow(evidence: Evidence): Row | undefined {
  switch (evidence.type) {
    case 'listing':
      // A Spamhaus PBL answer comes as tier 3 (a policy listing of end-user addresses, not a verdict on the mail).
      if (evidence.listId.startsWith('spamhaus') && evidence.tier === 1) return SCORE_TABLE.listingSpamhaus;
      return evidence.tier === 1
        ? SCORE_TABLE.listingTier1
        : evidence.tier === 2
          ? SCORE_TABLE.listingTier2
          : SCORE_TABLE.listingTier3;
    case 'dns':
      return evidence.record === 'mx'
        ? SCORE_TABLE.mx
        : evidence.record === 'dmarc'
          ? SCORE_TABLE.dmarcRecord
          : SCORE_TABLE.spfOrDkim;
    case 'dmarc_new_source':
      return SCORE_TABLE.dmarcNewSource;
    case 'note':
      return SCORE_TABLE.note;
    default:
      return undefined;
  }
}

export const decay = (hoursBefore: number) => 0.5 ** (Math.max(0, hoursBefore) / HALF_LIFE_HOURS);

/**
 * A drop on a daily series (`daily`) is the figure of its whole UTC day, placed at the day's start:
 * an event of that same day may explain it and counts as 0 hours before. A drop on an inbox test is
 * the moment the test completed.
 */
export function explains(dropAt: number, daily: boolean, eventAt: number): { hoursBefore: number } | undefined {
  const end = daily ? dropAt + DAY : dropAt;
  if (eventAt > end || eventAt < dropAt - WINDOW_HOURS * HOUR) return undefined;
  return { hoursBefore: Math.max(0, (dropAt - eventAt) / HOUR) };
}

function evidenceWords(evidence: Evidence, at: string, now: Date): string {
  switch (evidence.type) {
    case 'listing':
      return `${evidence.target} was found on ${evidence.listName} (${evidence.zone}) at ${momentWords(at, now)}${evidence.reason ? `: ${evidence.reason}` : ''}.`;
    case 'dns':
      return `The DNS check of ${momentWords(at, now)} saw: ${evidence.summary}`;
    case 'dmarc_new_source':
      return `${evidence.ip} first appeared in the DMARC reports for ${evidence.domain} on ${dayWords(at, now)}, with ${count(evidence.failed)} of ${count(evidence.total)} messages failing DMARC.`;
    case 'note':
      return `Your note of ${momentWords(at, now)}: "${evidence.text}"`;
    default:
      return '';
  }
}

const RECORD_FIX: Record<'spf' | 'dkim' | 'dmarc' | 'mx', (domain: string) => string> = {
  spf: (d) =>
    `Check the SPF record of ${d}: every service that sends as ${d} must be in it (include: or ip4:), within 10 DNS lookups. If the change was a mistake, publish the previous record again, then run Verify DNS.`,
  dkim: (d) =>
    `Make sure the DKIM key your mail for ${d} is signed with is published at its selector. When rotating keys, publish the new key before signing with it and keep the old one for a few days.`,
  dmarc: (d) =>
    `Review the DMARC change for ${d}: a stricter policy (p=quarantine or reject) or strict alignment (adkim=s, aspf=s) sends mail that fails alignment to spam or bounces it. Go back to the previous values until every source passes.`,
  mx: (d) =>
    `MX records do not decide where the mail you send lands, but bounces and replies go there: check that the new MX hosts of ${d} accept mail.`,
};

function fixOf(evidence: Evidence, domain: string): { fix: string; link: string | null } {
  switch (evidence.type) {
    case 'listing':
      return {
        fix: `Find out why ${evidence.target} is on ${evidence.listName} (its lookup page gives the reason), remove the cause (a compromised account or sign-up form, spam trap hits, an old or bought list), then request removal at ${evidence.removalUrl}.`,
        link: '/blacklist-monitoring',
      };
    case 'dns':
      return { fix: RECORD_FIX[evidence.record](evidence.domain), link: '/domains' };
    case 'dmarc_new_source':
      return {
        fix: `Find out who sends from ${evidence.ip}. If it is a service you use, add it to the SPF record and have it sign with DKIM for ${evidence.domain}; if not, someone is spoofing your domain, and a DMARC policy of quarantine or reject stops them.`,
        link: '/domains',
      };
    case 'note':
      return {
        fix: `You noted this yourself. If it changed how or through whom you send (a new ESP, new IP addresses), check that ${domain}'s SPF and DKIM cover the new sender and warm new IP addresses up gradually.`,
        link: null,
      };
    default:
      return { fix: '', link: null };
  }
}

/** The cause as the summary says it: "listed on Spamhaus ZEN since 2 March, 4 h before". */
function causeWords(cause: DropCause, evidence: Evidence, daily: boolean, now: Date): string {
  const hours = Math.round(cause.hoursBefore);
  const when = hours >= 1 ? `${hours} h before` : daily ? 'the same day' : 'less than an hour before';
  if (evidence.type === 'listing') return `listed on ${evidence.listName} since ${dayWords(cause.at, now)}, ${when}`;
  // "New source…" reads "new source…" inside the sentence; "SPF record changed" keeps its acronym.
  const title = /^[A-Z][a-z]/.test(cause.title)
    ? `${cause.title.charAt(0).toLowerCase()}${cause.title.slice(1)}`
    : cause.title;
  return `${title} on ${dayWords(cause.at, now)}, ${when}`;
}

/** A drop's stable id: its series and moment ("placement:gmail@2026-03-03T14:00:00.000Z"). */
export const dropIdOf = (change: Pick<DetectedChange, 'series' | 'at'>) => `${change.series}@${change.at}`;

export interface DiagnoseInput {
  change: DetectedChange;
  daily: boolean;
  events: readonly EvidenceEvent[];
  /** The domain (or IP) the timeline is about, for the fixes' words. */
  subject: string;
  now: Date;
}

/** One drop with its ranked causes and the summary sentence. */
export function diagnose({ change, daily, events, subject, now }: DiagnoseInput): Drop {
  const kind = dropKindOf(change.series);
  const dropAt = Date.parse(change.at);
  const scored: { cause: DropCause; evidence: Evidence }[] = [];
  for (const { event, evidence } of events) {
    const weight = kind ? (tableRow(evidence)?.[kind] ?? 0) : 0;
    if (weight === 0) continue;
    const timing = explains(dropAt, daily, Date.parse(event.at));
    if (!timing) continue;
    const score = Math.round(weight * decay(timing.hoursBefore) * 100) / 100;
    if (score < CAUSE_THRESHOLD) continue;
    const { fix, link } = fixOf(evidence, subject);
    scored.push({
      evidence,
      cause: {
        kind: event.kind,
        title: event.title,
        at: event.at,
        hoursBefore: Math.round(timing.hoursBefore * 10) / 10,
        score,
        evidence: evidenceWords(evidence, event.at, now),
        fix,
        link: link ?? event.link,
      },
    });
  }
  // Highest score first; of equal scores the nearer in time.
  scored.sort((a, b) => b.cause.score - a.cause.score || a.cause.hoursBefore - b.cause.hoursBefore);
  const moved = change.bad === 'fall' ? 'fell' : 'rose';
  const head = `${change.label} ${moved} from ${percentWords(change.before)} to ${percentWords(change.after)} on ${dayWords(change.at, now)}`;
  const top = scored[0];
  const summary = top
    ? `${head}; most likely cause: ${causeWords(top.cause, top.evidence, daily, now)}`
    : `${head}; ${NO_CLEAR_CAUSE}`;
  return {
    id: dropIdOf(change),
    series: change.series,
    label: change.label,
    at: change.at,
    before: Math.round(change.before * 100) / 100,
    after: Math.round(change.after * 100) / 100,
    summary,
    causes: scored.map((s) => s.cause),
  };
}
