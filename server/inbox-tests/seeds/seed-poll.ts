import type { Logger } from 'pino';
import type { Db } from '../../platform/db/client';
import { ImapError, type ImapTuning } from '../../platform/imap/imap-client';
import { completeInboxTest } from '../inbox-tests.repo';
import { subjectTag } from '../test-address';
import { decryptSecret } from '../../platform/security/secret-box';
import { searchSeedMailbox, type SeedFind } from './seed-mailbox';
import {
  findPendingSeedPlacements,
  findRunningSeedTests,
  markPlacementsMissing,
  noteSeedErrors,
  recordPlacementFound,
  recordSeedFailure,
  recordSeedPolled,
  type SeedRow,
} from './seeds.repo';

export const SEED_REMOVED_NOTE = 'Seed removed from the seed network';
/** Seeds polled at once: enough to get through a large network each minute, few enough for any server. */
const POLL_CONCURRENCY = 4;
// A poll runs every minute: a seed that hangs should not hold its slot for imapflow's minutes.
const SEED_IMAP_TUNING: ImapTuning = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };
const BACKOFF_FIRST_SECONDS = 30;
const BACKOFF_MAX_SECONDS = 10 * 60;

export interface SeedPollOptions {
  appSecret: string;
  placementWindowMinutes: number;
  log?: Pick<Logger, 'warn' | 'error'>;
  /** Tests shorten the IMAP timeouts. */
  tuning?: ImapTuning;
  /** Told of each completed test's owner once its completion is committed (the job queues an alert evaluation). */
  onCompleted?: (userId: number) => Promise<void>;
}

export interface SeedPollSummary {
  /** Seeds searched, and of those the ones that failed. */
  polled: number;
  failed: number;
  /** Seeds left alone this time because of the backoff after earlier failures. */
  backingOff: number;
  /** Placements resolved: found in a folder, or missing because the seed left the network. */
  found: number;
  removedSeedPlacements: number;
  /** Tests completed by this run. */
  completed: number;
}

interface PendingPlacement {
  id: number;
  testId: number;
}

/**
 * One round of inbox placement polling: every seed with pending placements of running tests is
 * searched for their subject tags (one connection per seed, POLL_CONCURRENCY seeds at a time), what
 * was found is recorded, and tests with nothing pending, or whose placement window has passed, are
 * completed. Everything lives in the database, so a round cut short is simply done again by the next.
 */
export async function pollSeedMailboxes(db: Db, options: SeedPollOptions): Promise<SeedPollSummary> {
  const summary: SeedPollSummary = {
    polled: 0,
    failed: 0,
    backingOff: 0,
    found: 0,
    removedSeedPlacements: 0,
    completed: 0,
  };
  const pending = await findPendingSeedPlacements(db);

  const removed = pending.filter((p) => !p.seed.active).map((p) => p.id);
  summary.removedSeedPlacements = await resolveRemovedSeeds(db, removed);

  const bySeed = new Map<number, { seed: SeedRow; due: boolean; placements: PendingPlacement[] }>();
  for (const p of pending) {
    if (!p.seed.active) continue;
    const entry = bySeed.get(p.seed.id) ?? { seed: p.seed, due: p.due, placements: [] };
    entry.placements.push({ id: p.id, testId: p.testId });
    bySeed.set(p.seed.id, entry);
  }
  const toPoll = [...bySeed.values()].filter((s) => s.due);
  summary.backingOff = bySeed.size - toPoll.length;
  await forEachLimited(toPoll, POLL_CONCURRENCY, async ({ seed, placements }) => {
    summary.polled++;
    const result = await pollSeed(db, seed, placements, options);
    if (result === 'failed') summary.failed++;
    else summary.found += result;
  });

  summary.completed = await completeFinishedTests(db, options.placementWindowMinutes, options.onCompleted);
  return summary;
}

async function resolveRemovedSeeds(db: Db, placementIds: number[]): Promise<number> {
  if (placementIds.length === 0) return 0;
  return markPlacementsMissing(db, placementIds, SEED_REMOVED_NOTE);
}

/** Searches one seed for the tags of its pending placements; returns how many were found, or 'failed'. */
async function pollSeed(
  db: Db,
  seed: SeedRow,
  placements: PendingPlacement[],
  options: SeedPollOptions,
): Promise<number | 'failed'> {
  let password = '';
  let found: Map<string, SeedFind>;
  try {
    password = decryptSecret(seed.passwordEncrypted, options.appSecret);
    const config = {
      host: seed.imapHost,
      port: seed.imapPort,
      secure: seed.imapSecure,
      user: seed.imapUser,
      password,
      tlsRejectUnauthorized: seed.imapTlsRejectUnauthorized,
      inboxFolder: seed.inboxFolder,
      spamFolders: seed.spamFolders,
      deleteFound: seed.deleteFound,
    };
    found = await searchSeedMailbox(config, [...new Set(placements.map((p) => subjectTag(p.testId)))], {
      ...SEED_IMAP_TUNING,
      ...options.tuning,
    });
  } catch (err) {
    const lastError = failureInWords(err, password);
    if (!(err instanceof ImapError)) options.log?.error({ err, seed: seed.address }, 'Seed mailbox poll failed');
    else options.log?.warn({ seed: seed.address, failure: err.failure, error: lastError }, 'Seed mailbox poll failed');
    await recordSeedFailure(db, seed.id, lastError, {
      firstSeconds: BACKOFF_FIRST_SECONDS,
      maxSeconds: BACKOFF_MAX_SECONDS,
    });
    return 'failed';
  }

  let recorded = 0;
  for (const placement of placements) {
    const find = found.get(subjectTag(placement.testId));
    if (!find) continue;
    // Only while still pending: a second round, or a test completed meanwhile, keeps what it has.
    if (await recordPlacementFound(db, placement.id, find)) recorded++;
  }
  await recordSeedPolled(db, seed.id);
  return recorded;
}

/** For seed_mailboxes.last_error and the note of a placement left missing: words, never the password. */
function failureInWords(err: unknown, password: string): string {
  const message = err instanceof Error ? err.message : String(err);
  const words =
    err instanceof ImapError
      ? err.failure === 'auth'
        ? `Could not log in: ${message}`
        : message
      : `Seed mailbox not checked: ${message}`;
  return password ? words.split(password).join('***') : words;
}

/**
 * Running seed tests with nothing pending, or whose window since the message arrived has passed,
 * are completed; a placement still pending then is missing, with its seed's last error as the note
 * when its last poll failed. Tests run by the analyser alone are not completed here.
 */
async function completeFinishedTests(
  db: Db,
  windowMinutes: number,
  onCompleted?: (userId: number) => Promise<void>,
): Promise<number> {
  const running = await findRunningSeedTests(db, windowMinutes);
  let completed = 0;
  for (const test of running) {
    if (test.pending > 0 && !test.windowPassed) continue;
    await db.transaction(async (tx) => {
      // The last error of a seed whose last poll failed; null (no note) for one that answered.
      await noteSeedErrors(tx, test.id);
      await completeInboxTest(tx, test.id);
    });
    completed++;
    await onCompleted?.(test.userId);
  }
  return completed;
}

async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(limit, queue.length) }, worker));
}
