import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundMessages } from '../db/schema/index';
import { createTestApp, type TestApp } from '../../test/test-app';
import { finishInboundMessage, KEPT_BODIES_MAX_BYTES, storeInboundMessage } from './inbound.repo';

/*
 * Mail nobody takes is kept whole only within a bound for all of it together (issue 36: 3 addresses grew
 * the database by 323 MB in a minute); past it, a failed or unrouted message keeps its headers only.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HEADERS = 'From: reporter@example.org\r\nSubject: Report\r\n\r\n';
const store = async (body: string) =>
  (await storeInboundMessage(t.database.db, {
    kind: 'dmarc',
    source: 'smtp',
    rcptTo: ['dmarc@in.example'],
    raw: Buffer.from(HEADERS + body),
  }))!;
const row = async (id: number) =>
  (await t.database.db.select().from(inboundMessages).where(eq(inboundMessages.id, id)))[0];

describe('the bodies of mail nobody takes', () => {
  it('are kept within KEPT_BODIES_MAX_BYTES for all of them together, then only the headers stay', async () => {
    const first = await store('the first report');
    await finishInboundMessage(t.database.db, first, { status: 'unrouted', result: 'no user has verified it' });
    expect((await row(first)).raw!.toString()).toBe(`${HEADERS}the first report`);

    // A kept message that stands for nearly all the room (its size is what counts).
    await t.database.db
      .update(inboundMessages)
      .set({ size: KEPT_BODIES_MAX_BYTES - 10 })
      .where(eq(inboundMessages.id, first));
    const second = await store('a second report, which does not fit');
    await finishInboundMessage(t.database.db, second, { status: 'failed', result: 'no report in it' });
    expect(await row(second)).toMatchObject({ status: 'failed', bodyDroppedAt: expect.any(Date) });
    expect((await row(second)).raw!.toString()).toBe(HEADERS);
  });

  it('are not kept at all when the mailbox says so, and go once processed', async () => {
    const stranger = await store('a forged report');
    await finishInboundMessage(t.database.db, stranger, { status: 'unrouted', result: 'forged', keepBody: false });
    expect((await row(stranger)).raw!.toString()).toBe(HEADERS);
    const used = await store('a real report');
    await finishInboundMessage(t.database.db, used, { status: 'processed', result: 'imported' });
    expect(await row(used)).toMatchObject({ raw: null, bodyDroppedAt: null });
  });
});
