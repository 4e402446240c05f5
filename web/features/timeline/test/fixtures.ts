import type { Diagnosis, DomainTimeline, Drop, TimelineEvent, TimelineSeries } from '@contracts/timeline';
import { jsonResponse, makeUser, stubFetch } from '../../../test/test-utils';

// Builders of API answers for the timeline page's tests (test-only module).

export function makeSeries(overrides: Partial<TimelineSeries> = {}): TimelineSeries {
  return {
    key: 'placement:gmail',
    label: 'Inbox placement at Gmail',
    unit: 'percent',
    points: [
      { at: '2025-03-01T10:00:00.000Z', value: 92, sample: 25 },
      { at: '2025-03-03T10:00:00.000Z', value: 61, sample: 25 },
    ],
    ...overrides,
  };
}

export function makeEvent(overrides: Partial<TimelineEvent> = {}): TimelineEvent {
  return {
    id: 'listing:1',
    at: '2025-03-03T06:00:00.000Z',
    kind: 'listing',
    title: 'Listed on Spamhaus ZEN',
    detail: '192.0.2.10 answered 127.0.0.2',
    severity: 'critical',
    link: '/blacklist-monitoring',
    ...overrides,
  };
}

export function makeDrop(overrides: Partial<Drop> = {}): Drop {
  return {
    id: 'placement:gmail:2025-03-03',
    series: 'placement:gmail',
    label: 'Inbox placement at Gmail',
    at: '2025-03-03T10:00:00.000Z',
    before: 92,
    after: 61,
    summary:
      'Inbox placement at Gmail fell from 92% to 61% on 3 March; most likely cause: listed on Spamhaus ZEN since 3 March, 4 h before',
    causes: [
      {
        kind: 'listing',
        title: 'Listed on Spamhaus ZEN',
        at: '2025-03-03T06:00:00.000Z',
        hoursBefore: 4,
        score: 0.9,
        evidence: '192.0.2.10, which sends for example.com, was listed on Spamhaus ZEN at 06:00.',
        fix: 'Find what sent the spam from 192.0.2.10, stop it, then request removal from Spamhaus.',
        link: '/blacklist-monitoring',
      },
      {
        kind: 'note',
        title: 'New campaign',
        at: '2025-03-02T10:00:00.000Z',
        hoursBefore: 24,
        score: 0.3,
        evidence: 'Your note: New campaign.',
        fix: 'Check the campaign’s list source and content.',
        link: null,
      },
    ],
    ...overrides,
  };
}

export function makeTimeline(overrides: Partial<DomainTimeline> = {}): DomainTimeline {
  return {
    domain: { id: 1, name: 'example.com' },
    from: '2025-02-04T12:00:00.000Z',
    to: '2025-03-06T12:00:00.000Z',
    series: [makeSeries()],
    events: [
      makeEvent({
        id: 'note:7',
        kind: 'note',
        title: 'New campaign',
        detail: null,
        severity: 'info',
        link: null,
        at: '2025-03-02T10:00:00.000Z',
      }),
      makeEvent(),
      makeEvent({
        id: 'drop:1',
        kind: 'drop',
        title: 'Inbox placement at Gmail fell from 92% to 61%',
        detail: null,
        severity: 'critical',
        link: null,
        at: '2025-03-03T10:00:00.000Z',
      }),
    ],
    ...overrides,
  };
}

type Answer = DomainTimeline | Diagnosis | (() => Response | Promise<Response>);

/** The signed-in user and domain 1's timeline and diagnosis; `extra` adds or replaces calls. */
export function stubTimeline(timeline: Answer, diagnosis: Answer, extra: Parameters<typeof stubFetch>[0] = {}) {
  const answer = (value: Answer) => () => (typeof value === 'function' ? value() : jsonResponse(value));
  return stubFetch({
    'GET /api/user': () => jsonResponse(makeUser()),
    'GET /api/alerts': () => jsonResponse([]),
    'GET /api/domains/1/timeline': answer(timeline),
    'GET /api/domains/1/diagnosis': answer(diagnosis),
    ...extra,
  });
}
