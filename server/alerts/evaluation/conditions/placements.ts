import type { TestRow } from '../../../insights/alert-figures';

/* Inbox tests per From domain, for the inbox conditions and the inbox-rate rules. */

/** Account-wide inbox results (a test whose From domain is unknown) are keyed "account". */
const ACCOUNT = 'account';

interface Placement {
  domain: string | null;
  inbox: number;
  seeds: number;
  tests: number;
  testId: number;
  completedAt: Date;
}

/** The latest test of each From domain (tests are newest first). */
export function latestTestByDomain(tests: TestRow[]): Map<string, Placement> {
  const out = new Map<string, Placement>();
  for (const t of tests) {
    const key = t.domain ?? ACCOUNT;
    if (t.totalSeeds <= 0 || out.has(key)) continue;
    out.set(key, {
      domain: t.domain,
      inbox: t.inboxCount,
      seeds: t.totalSeeds,
      tests: 1,
      testId: t.id,
      completedAt: t.completedAt,
    });
  }
  return out;
}

/** The tests of each From domain since `since`, added up (testId and completedAt of the latest). */
export function testsByDomainSince(tests: TestRow[], since: Date): Map<string, Placement> {
  const out = new Map<string, Placement>();
  for (const t of tests) {
    if (t.totalSeeds <= 0 || t.completedAt < since) continue;
    const key = t.domain ?? ACCOUNT;
    const p = out.get(key) ?? {
      domain: t.domain,
      inbox: 0,
      seeds: 0,
      tests: 0,
      testId: t.id,
      completedAt: t.completedAt,
    };
    p.inbox += t.inboxCount;
    p.seeds += t.totalSeeds;
    p.tests++;
    out.set(key, p);
  }
  return out;
}

export const sender = (p: Placement) => (p.domain ? p.domain : 'your account (From domain unknown)');
