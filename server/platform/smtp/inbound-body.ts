import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { inboundMessages } from '../db/schema/index';

/**
 * Bodies up to this size are read with their message; a larger one a piece of this size at a time. Read whole, a
 * 10 MB body arrives as one 20 MB hex text that node-postgres decodes in one go, holding the event loop (and so
 * every HTTP and SMTP answer) for a tenth of a second and more (bench:hostile, its 9 MB message); a piece is a
 * millisecond or two of work, and the loop answers in between.
 */
export const BODY_PIECE_BYTES = 512 * 1024;

/**
 * A stored message's body of `bytes` bytes, read a piece at a time into memory shared with worker threads: the
 * analysis and report-intake threads it is handed to then read it where it is, and this thread copies nothing.
 */
export async function readInboundBody(ex: Executor, id: number, bytes: number): Promise<Buffer> {
  const body = Buffer.from(new SharedArrayBuffer(bytes));
  for (let offset = 0; offset < bytes; offset += BODY_PIECE_BYTES) {
    const { rows } = await ex.execute<{ piece: Buffer | null }>(
      sql`select substring(${inboundMessages.raw} from ${offset + 1} for ${BODY_PIECE_BYTES}) as piece
          from ${inboundMessages} where ${inboundMessages.id} = ${id}`,
    );
    const piece = rows[0]?.piece;
    // Only a purged message changes under a reader (a received one keeps its body): its job finds nothing next time.
    if (!piece || piece.length !== Math.min(BODY_PIECE_BYTES, bytes - offset))
      throw new Error(`The body of inbound message ${id} changed while it was read.`);
    piece.copy(body, offset);
  }
  return body;
}
