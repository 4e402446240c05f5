import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dmarcReportAddress } from '@contracts/dmarc';
import { inboundMessages } from '../db/schema/index';
import { createTestApp, startTestSmtpListener, type TestApp } from '../../test/test-app';
import { BODY_PIECE_BYTES, BodyPieces } from './inbound-body';
import { claimInboundMessage, storeInboundMessage } from './inbound.repo';

/*
 * A large message's body is read a piece at a time, into memory the worker threads share (issue 39: read whole, a
 * 9 MB message held the event loop for 219 ms in bench:hostile, and every HTTP answer with it).
 */

const INBOUND = 'in.inboxpulse.test';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { INBOUND_DOMAIN: INBOUND } });
});
afterAll(() => t.close());

/** `raw` as the listener hands it on: joined into pieces. */
function pieces(raw: Buffer): Buffer[] {
  const body = new BodyPieces();
  body.add(raw);
  return body.done();
}

const store = async (raw: Buffer | Buffer[]) =>
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

describe('storing a received message', () => {
  it('joins the chunks of a body into pieces of at most BODY_PIECE_BYTES, in order', () => {
    const chunks = [randomBytes(BODY_PIECE_BYTES - 5), randomBytes(10), randomBytes(2 * BODY_PIECE_BYTES + 3)];
    const body = new BodyPieces();
    body.add(chunks[0]);
    body.add(chunks[1]);
    // A piece is joined as soon as it is full, not at the end.
    expect(body.pieces.map((piece) => piece.length)).toEqual([BODY_PIECE_BYTES]);
    body.add(chunks[2]);
    const pieces = body.done();
    expect(pieces.map((piece) => piece.length)).toEqual([BODY_PIECE_BYTES, BODY_PIECE_BYTES, BODY_PIECE_BYTES, 8]);
    expect(Buffer.concat(pieces).equals(Buffer.concat(chunks))).toBe(true);
    expect(new BodyPieces().done()).toEqual([]);
  });

  it('writes a body of several pieces whole, and a duplicate of it not at all', async () => {
    const raw = randomBytes(2 * BODY_PIECE_BYTES + 777);
    const message = {
      kind: 'dmarc' as const,
      source: 'imap' as const,
      sourceKey: `imap:pieces-${Date.now()}`,
      rcptTo: [],
    };
    const id = (await storeInboundMessage(t.database.db, { ...message, raw: pieces(raw) }))!;
    // The second store runs on a connection whose pieces table the first one used: it was emptied at commit.
    expect(await storeInboundMessage(t.database.db, { ...message, raw: pieces(raw) })).toBeUndefined();
    const [row] = await t.database.db.select().from(inboundMessages).where(eq(inboundMessages.id, id));
    expect(row).toMatchObject({ size: raw.length });
    expect(row.raw!.equals(raw)).toBe(true);
    const again = (await store(pieces(raw.subarray(0, BODY_PIECE_BYTES + 1))))!;
    expect((await claimInboundMessage(t.database.db, again))!.raw!.equals(raw.subarray(0, BODY_PIECE_BYTES + 1))).toBe(
      true,
    );
  });

  it('keeps a message larger than a piece, received over SMTP, byte for byte', async () => {
    const smtp = await startTestSmtpListener(t);
    const line = 'A line of a long newsletter, many of them make many pieces of a body.\r\n';
    const head = 'From: news@sender.example.org\r\nSubject: A long newsletter\r\n\r\n';
    const raw = Buffer.from(head + line.repeat(Math.ceil((3 * BODY_PIECE_BYTES) / line.length)));
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      ignoreTLS: true,
    });
    try {
      const sent = await transport.sendMail({
        envelope: { from: 'news@sender.example.org', to: [dmarcReportAddress(INBOUND)] },
        raw,
      });
      const id = Number(/Queued as (\d+)/.exec(sent.response)![1]);
      const [row] = await t.database.db.select().from(inboundMessages).where(eq(inboundMessages.id, id));
      expect(row.size).toBe(raw.length);
      expect(row.raw!.equals(raw)).toBe(true);
    } finally {
      transport.close();
      await smtp.close();
    }
  });
});
