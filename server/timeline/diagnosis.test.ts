import { describe, expect, it } from 'vitest';
import { NO_CLEAR_CAUSE } from '@contracts/timeline';
import type { DetectedChange } from './change-detection';
import { CAUSE_THRESHOLD, decay, diagnose, dropKindOf, explains } from './diagnosis';
import type { EvidenceEvent } from './evidence';

const NOW = new Date('2026-03-10T12:00:00Z');
const HOUR = 3_600_000;

function listing(at: string, listId: string, listName: string, tier: 1 | 2 | 3): EvidenceEvent {
  return {
    event: {
      id: `listing:${listId}`,
      at,
      kind: 'listing',
      title: `192.0.2.10 listed on ${listName}`,
      detail: null,
      severity: 'critical',
      link: '/blacklist-monitoring',
    },
    evidence: {
      type: 'listing',
      listId,
      listName,
      zone: `${listId}.example`,
      tier,
      target: '192.0.2.10',
      removalUrl: 'https://lists.example/remove',
      reason: null,
    },
  };
}
function note(at: string, text: string): EvidenceEvent {
  return {
    event: { id: `note:${text}`, at, kind: 'note', title: text, detail: null, severity: 'info', link: null },
    evidence: { type: 'note', text },
  };
}
const gmailDrop: DetectedChange = {
  series: 'placement:gmail',
  label: 'Inbox placement at Gmail',
  at: '2026-03-03T14:00:00.000Z',
  before: 92,
  after: 61,
  bad: 'fall',
};

describe('the diagnosis of a drop', () => {
  it('ranks a Spamhaus listing first at Gmail, above a minor list and a note, and says it in one sentence', () => {
    const drop = diagnose({
      change: gmailDrop,
      daily: false,
      subject: 'brand.example',
      now: NOW,
      events: [
        note('2026-03-03T13:00:00.000Z', 'switched ESP'),
        listing('2026-03-03T10:00:00.000Z', 'spamhaus-zen', 'Spamhaus ZEN', 1),
        listing('2026-03-03T09:00:00.000Z', 'psbl', 'PSBL', 2),
        // After the drop: cannot explain it.
        listing('2026-03-03T15:00:00.000Z', 'barracuda', 'Barracuda', 1),
        // Four days before: outside the 72-hour window.
        listing('2026-02-27T12:00:00.000Z', 'spamcop', 'SpamCop', 1),
      ],
    });
    expect(drop.causes.map((c) => c.title)).toEqual(['192.0.2.10 listed on Spamhaus ZEN', 'switched ESP']);
    expect(drop.causes[0]).toMatchObject({ kind: 'listing', hoursBefore: 4, link: '/blacklist-monitoring' });
    expect(drop.causes[0]!.score).toBeGreaterThan(drop.causes[1]!.score);
    expect(drop.causes[0]!.fix).toContain('https://lists.example/remove');
    expect(drop.summary).toBe(
      'Inbox placement at Gmail fell from 92% to 61% on 3 March; most likely cause: listed on Spamhaus ZEN since 3 March, 4 h before',
    );
    expect(drop.id).toBe('placement:gmail@2026-03-03T14:00:00.000Z');
  });

  it('weighs a tier-1 list other than Spamhaus more at a corporate filter than at Gmail', () => {
    const events = [listing('2026-03-03T12:00:00.000Z', 'barracuda', 'Barracuda', 1)];
    const atGmail = diagnose({ change: gmailDrop, daily: false, subject: 'b', now: NOW, events });
    const atCompany = diagnose({
      change: { ...gmailDrop, series: 'placement:company-mail-server' },
      daily: false,
      subject: 'b',
      now: NOW,
      events,
    });
    expect(atCompany.causes[0]!.score).toBeGreaterThan(atGmail.causes[0]!.score);
  });

  it('says "no clear cause" when nothing scores enough', () => {
    const drop = diagnose({
      change: {
        series: 'bounce:rate',
        label: 'Bounce rate',
        at: '2026-03-03T00:00:00.000Z',
        before: 1,
        after: 9,
        bad: 'rise',
      },
      daily: true,
      subject: 'brand.example',
      now: NOW,
      // A note two days before: too weak by then.
      events: [note('2026-03-01T00:00:00.000Z', 'new campaign')],
    });
    expect(drop.causes).toEqual([]);
    expect(drop.summary).toBe(`Bounce rate rose from 1% to 9% on 3 March; ${NO_CLEAR_CAUSE}`);
  });

  it('lets an event of a daily figure’s own day explain it, as 0 hours before', () => {
    const dayStart = Date.parse('2026-03-03T00:00:00Z');
    expect(explains(dayStart, true, dayStart + 10 * HOUR)).toEqual({ hoursBefore: 0 });
    expect(explains(dayStart, true, dayStart + 25 * HOUR)).toBeUndefined();
    expect(explains(dayStart, false, dayStart + HOUR)).toBeUndefined();
    expect(explains(dayStart, false, dayStart - 73 * HOUR)).toBeUndefined();
    expect(decay(0)).toBe(1);
    expect(decay(48)).toBe(0.5);
    expect(CAUSE_THRESHOLD).toBeGreaterThan(0);
    expect(dropKindOf('placement:yahoo')).toBe('placement_big');
    expect(dropKindOf('placement:seznam')).toBe('placement_other');
  });
});
