import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '../db/client';
import { openNotifications, type Notifications } from '../db/notifications';
import { openTestDatabase } from '../test/test-database';
import { defineJob, type JobContext } from './job';
import { createJobQueue } from './queue';

const log = pino({ level: 'silent' });
const ran: number[] = [];
const countJob = defineJob({ name: 'test-count', schema: z.object({ n: z.number() }), async run({ n }) { ran.push(n); } });

let database: Database;
let notifications: Notifications;
beforeAll(async () => {
  database = await openTestDatabase();
  notifications = await openNotifications(database.connection, log);
});
afterAll(async () => {
  await notifications?.close();
  await database?.close();
});

describe('the job worker', () => {
  it('works through a backlog without waiting a polling interval between jobs', async () => {
    // A sender-only process creates the queue and leaves five jobs waiting.
    const context = { db: database.db } as unknown as Omit<JobContext, 'jobs' | 'log'>;
    const sender = createJobQueue({ database, notifications, jobs: [countJob], log, work: false });
    await sender.start(context);
    for (let n = 1; n <= 5; n++) await sender.send(countJob.name, { n });
    // A worker that polls every 60 s: its first fetch is at start, so five jobs one poll apart would take 4 minutes.
    const worker = createJobQueue({ database, notifications, jobs: [countJob], log, work: true, pollSeconds: 60 });
    await worker.start(context);
    try {
      for (let i = 0; i < 100 && ran.length < 5; i++) await new Promise((r) => setTimeout(r, 100));
      expect(ran.sort()).toEqual([1, 2, 3, 4, 5]);
    } finally {
      await worker.stop();
      await sender.stop();
    }
  }, 30_000);
});
