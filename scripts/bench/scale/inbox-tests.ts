import { eq } from 'drizzle-orm';
import { claimTestsForMessage, completeInboxTest, createInboxTest } from '../../../server/inbox-tests/inbox-tests.repo';
import {
  findPendingSeedPlacements,
  recordPlacementFound,
  upsertSeedMailbox,
} from '../../../server/inbox-tests/seeds/seeds.repo';
import type { Db } from '../../../server/platform/db/client';
import { inboxTestPlacements, inboxTests } from '../../../server/platform/db/schema/index';
import { inLanes, progress } from './progress';
import { seeded } from './random';
import { DAYS, dayAgo, type BenchDomain, type Tier } from './world';

/*
 * Inbox placement tests over the year: created as the app creates them (one pending placement per seed),
 * taken by their message, each seed's find recorded, then completed (a seed that found nothing: missing).
 * The message itself is not stored (these pages read the placements, not the analysis).
 */

/** A seed network of the big providers' mailboxes (reserved .test addresses; never polled: every test completes). */
const SEEDS = [
  ['Gmail', 'Google', 'US'],
  ['Outlook.com', 'Microsoft', 'US'],
  ['Yahoo Mail', 'Yahoo', 'US'],
  ['AOL Mail', 'Yahoo', 'US'],
  ['GMX', 'United Internet', 'DE'],
  ['Mail.ru', 'VK', 'RU'],
] as const;

/** Tests a domain runs in a year: a big sender before each campaign, small ones now and then. */
const PER_YEAR: Record<Tier, number> = { big: 12, medium: 3, small: 0.25 };

async function addSeeds(db: Db) {
  for (const [provider, mailboxSystem, country] of SEEDS) {
    const user = `seed-${provider.toLowerCase().replace(/[^a-z]/g, '')}`;
    await upsertSeedMailbox(db, {
      address: `${user}@seeds.test`,
      provider,
      mailboxSystem,
      region: country === 'US' ? 'North America' : 'Europe',
      country,
      imapHost: 'imap.seeds.test',
      imapPort: 993,
      imapSecure: true,
      imapUser: user,
      passwordEncrypted: '',
      spamFolders: ['Junk'],
      active: true,
    });
  }
}

export async function fillInboxTests(
  db: Db,
  userId: number,
  domains: readonly BenchDomain[],
  seed: number,
  lanes: number,
) {
  await addSeeds(db);
  const shown = progress('inbox tests', domains.length);
  let placements = 0;
  await inLanes(domains, lanes, async (domain) => {
    const random = seeded(seed * 15_485_863 + domain.index);
    const tests = Math.floor(PER_YEAR[domain.tier]) + (random.chance(PER_YEAR[domain.tier] % 1) ? 1 : 0);
    for (let i = 0; i < tests; i++) {
      const sentAt = new Date(dayAgo(random.int(1, DAYS)).getTime() + random.int(0, 86_399_000));
      const test = await createInboxTest(db, userId, 'tests.inboxpulse.test');
      await db.transaction(async (tx) => {
        await claimTestsForMessage(tx, [test.id], { id: test.id, receivedAt: sentAt });
        const spamRate = domain.tier === 'small' ? 0.3 : 0.1;
        const pending = await findPendingSeedPlacements(tx);
        for (const placement of pending.filter((p) => p.testId === test.id)) {
          if (random.chance(0.05)) continue; // not found: completed as missing
          const spam = random.chance(spamRate);
          const gmailTab = placement.seed.provider === 'Gmail' && !spam ? random.pick(['Primary', 'Promotions']) : null;
          await recordPlacementFound(tx, placement.id, {
            placement: spam ? 'spam' : 'inbox',
            folder: spam ? 'Junk' : 'INBOX',
            tab: gmailTab,
          });
          placements++;
        }
        await completeInboxTest(tx, test.id);
        // The repositories stamp now(); the year's tests are moved to when they ran.
        await tx
          .update(inboxTests)
          .set({ createdAt: sentAt, completedAt: new Date(sentAt.getTime() + 600_000) })
          .where(eq(inboxTests.id, test.id));
        await tx
          .update(inboxTestPlacements)
          .set({ foundAt: new Date(sentAt.getTime() + 120_000) })
          .where(eq(inboxTestPlacements.testId, test.id));
      });
    }
    shown.step(placements);
  });
  shown.end(placements);
}
