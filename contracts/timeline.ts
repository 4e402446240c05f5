import { z } from 'zod';
import { Id, IdParams, text } from './input';

/*
 * The deliverability timeline (issue 19): every kind of evidence InboxPulse holds for a domain (or a
 * sending IP) on one time axis, the drops found in its series, and for each drop the events that
 * most likely caused it. ADR 035 says how drops are detected and causes scored.
 */

export const TIMELINE_DAYS_MAX = 365;
export const TIMELINE_DAYS_DEFAULT = 30;

/** ?days=30: how far back the timeline and the diagnosis look, in days up to now. */
export const TimelineQuery = z.object({
  days: z.coerce
    .number({ error: 'days must be a number' })
    .int('days must be a whole number')
    .min(1, 'days must be at least 1')
    .max(TIMELINE_DAYS_MAX, `days must be at most ${TIMELINE_DAYS_MAX}`)
    .default(TIMELINE_DAYS_DEFAULT),
});
export type TimelineQuery = z.infer<typeof TimelineQuery>;

export const TimelineEventKind = z.enum([
  /** A DNS record of the domain changed (SPF, DKIM, DMARC, MX); detail carries old → new. */
  'dns_change',
  'dns_check_failed',
  /** Blocklist listing or delisting of the domain or of one of the user's sending IPs. */
  'listing',
  'delisting',
  /** A sending source failing DMARC that had not been seen before. */
  'dmarc_new_source',
  /** A completed inbox placement test. */
  'placement_test',
  /** An ESP/MTA connection or sync error. */
  'integration',
  /** The user's own note ("switched ESP"). */
  'note',
  /** A drop detected in one of the series (see the diagnosis). */
  'drop',
]);
export type TimelineEventKind = z.infer<typeof TimelineEventKind>;

export const TimelineSeverity = z.enum(['info', 'warning', 'critical']);
export type TimelineSeverity = z.infer<typeof TimelineSeverity>;

export const TimelinePoint = z.object({
  at: z.string(),
  /** A percentage from 0 to 100. */
  value: z.number(),
  /** The number of messages (or seed mailboxes) behind the point; null when the source does not say. */
  sample: z.number().int().nullable(),
});
export type TimelinePoint = z.infer<typeof TimelinePoint>;

/**
 * Series keys (only series with data are present): `placement:<provider>` and `placement:all`
 * (inbox placement % from completed inbox tests), `dmarc:pass` (DMARC pass rate per day, aggregate
 * reports), `bounce:rate` and `complaint:rate` (per day, email_metrics), `gmail:spam` (Postmaster).
 */
export const TimelineSeries = z.object({
  key: z.string(),
  /** e.g. "Inbox placement at Gmail". */
  label: z.string(),
  unit: z.literal('percent'),
  /** Oldest first. */
  points: z.array(TimelinePoint),
});
export type TimelineSeries = z.infer<typeof TimelineSeries>;

export const TimelineEvent = z.object({
  id: z.string(),
  at: z.string(),
  kind: TimelineEventKind,
  title: z.string(),
  detail: z.string().nullable(),
  severity: TimelineSeverity,
  /** The page where the user acts on it (/blacklist-monitoring, /domains, /dmarc...); null when none. */
  link: z.string().nullable(),
});
export type TimelineEvent = z.infer<typeof TimelineEvent>;

const TimelineBody = {
  /** The window asked for: `days` days up to now. */
  from: z.string(),
  to: z.string(),
  series: z.array(TimelineSeries),
  /** Oldest first; bounded (TIMELINE_EVENTS_MAX), the newest kept when there are more. */
  events: z.array(TimelineEvent),
};

export const TIMELINE_EVENTS_MAX = 500;

/** GET /api/domains/:id/timeline?days=30. */
export const DomainTimeline = z.object({
  domain: z.object({ id: z.number().int(), name: z.string() }),
  ...TimelineBody,
});
export type DomainTimeline = z.infer<typeof DomainTimeline>;

/** GET /api/ip-addresses/:id/timeline?days=30 (the IP entity's existing route prefix). */
export const IpTimeline = z.object({ ip: z.object({ id: z.number().int(), address: z.string() }), ...TimelineBody });
export type IpTimeline = z.infer<typeof IpTimeline>;

export const DropCause = z.object({
  kind: TimelineEventKind,
  title: z.string(),
  at: z.string(),
  /** How long before the drop the event happened, in whole hours. */
  hoursBefore: z.number(),
  /** How strongly it explains the drop, 0 to 1. */
  score: z.number().min(0).max(1),
  /** What exactly was observed, and when. */
  evidence: z.string(),
  /** What to do about it, in plain words. */
  fix: z.string(),
  link: z.string().nullable(),
});
export type DropCause = z.infer<typeof DropCause>;

export const Drop = z.object({
  id: z.string(),
  /** The series key, e.g. "placement:gmail". */
  series: z.string(),
  label: z.string(),
  at: z.string(),
  /** The level before the drop and the value at it, in percent. */
  before: z.number(),
  after: z.number(),
  /** "Inbox placement at Gmail fell from 92% to 61% on 3 March; most likely cause: …" or "…; no clear cause in the evidence InboxPulse holds". */
  summary: z.string(),
  /** Highest score first; empty when nothing explains the drop. */
  causes: z.array(DropCause),
});
export type Drop = z.infer<typeof Drop>;

/** GET /api/domains/:id/diagnosis?days=30: newest drop first. */
export const Diagnosis = z.object({ drops: z.array(Drop) });
export type Diagnosis = z.infer<typeof Diagnosis>;

/** The summary's words when no event explains a drop. */
export const NO_CLEAR_CAUSE = 'no clear cause in the evidence InboxPulse holds';

export const NOTE_TEXT_MAX = 500;

/** POST /api/domains/:id/notes. `at` defaults to now and may not be in the future. */
export const CreateNoteRequest = z.object({
  text: text('text', NOTE_TEXT_MAX, { trim: true, required: 'text is required' }).min(1, 'text is required'),
  at: z.iso
    .datetime({ offset: true, error: 'at must be a date and time like 2024-03-31T14:00:00Z' })
    .refine((at) => Date.parse(at) <= Date.now() + 60_000, 'at must not be in the future')
    .refine((at) => Date.parse(at) >= Date.parse('2000-01-01T00:00:00Z'), 'at must be after 2000')
    .optional(),
});
export type CreateNoteRequest = z.infer<typeof CreateNoteRequest>;

/** The note answered with 201. */
export const TimelineNote = z.object({ id: z.number().int(), at: z.string(), text: z.string() });
export type TimelineNote = z.infer<typeof TimelineNote>;

export const DomainNoteParams = IdParams('Domain id').extend({ noteId: Id('Note id') });
export type DomainNoteParams = z.infer<typeof DomainNoteParams>;

/**
 * The web page of a domain's timeline, linked from the domain card, the dashboard and the drop alert.
 * A drop alert (type per series: deliverability_drop, bounce, spam or authentication_failure) carries
 * it as `metadata.link`, with `metadata.dropId` and `metadata.domainId`.
 */
export function domainTimelinePath(domainId: number): string {
  return `/domains/${domainId}/timeline`;
}
