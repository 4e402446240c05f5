import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { BODY_PIECE_BYTES } from './inbound-body';
import { claimInboundMessage, storeInboundMessage } from './inbound.repo';

/*
 * A large message's body is read a piece at a time, into memory the worker threads share (issue 39: read whole, a
 * 9 MB message held the event loop for 219 ms in bench:hostile, and every HTTP answer with it).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const store = async (raw: Buffer) =>
  (await storeInboundMessage(t.database.db, { kind: 'inbox_test', source: 'smtp', rcptTo: ['t@in.example'], raw }))!;

describe('claiming a received message', () => {
  it('reads a body larger than a piece in pieces, byte for byte, into shared memory', async () => {
    // Not a whole number of pieces, and bytes that are not text: every piece boundary and byte value must survive.
    const raw = randomBytes(3 * BODY_PIECE_BYTES + 12345);
    const id = await store(raw);
    const claimed = await claimInboundMessage(t.database.db, id);
    expect(claimed).toMatchObject({ id, attempts: 1, status: 'received', size: raw.length });
    expect(claimed!.raw!.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(claimed!.raw!.equals(raw)).toBe(true);
  });

  it('reads a small body with the claim itself, and counts each attempt', async () => {
    const raw = Buffer.from('Subject: small\r\n\r\nA small message.\r\n');
    const id = await store(raw);
    expect((await claimInboundMessage(t.database.db, id))!.raw!.equals(raw)).toBe(true);
    expect(await claimInboundMessage(t.database.db, id)).toMatchObject({ attempts: 2 });
  });
});
