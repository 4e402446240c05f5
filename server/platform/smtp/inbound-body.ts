import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client';
import { inboundMessages } from '../db/schema/index';

/**
 * Bodies up to this size are stored and read with their message; a larger one a piece of this size at a time. Whole,
 * a 10 MB body goes out as one 10 MB message and comes back as one 20 MB hex text that node-postgres decodes in one
 * go, each holding the event loop (and so every HTTP and SMTP answer) for a tenth of a second and more (bench:hostile,
 * its 9 MB message); a piece is a millisecond or two of work, and the loop answers in between.
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

/**
 * A received body's chunks (as the socket gives them) joined into pieces of at most BODY_PIECE_BYTES, in order, a piece
 * as soon as it is full: joined all at the end, the copies of a 10 MB body would add up to one long task again.
 */
export class BodyPieces {
  readonly pieces: Buffer[] = [];
  private group: Buffer[] = [];
  private grouped = 0;

  add(chunk: Buffer): void {
    while (chunk.length > 0) {
      const taken = chunk.subarray(0, BODY_PIECE_BYTES - this.grouped);
      this.group.push(taken);
      this.grouped += taken.length;
      chunk = chunk.subarray(taken.length);
      if (this.grouped === BODY_PIECE_BYTES) this.close();
    }
  }

  /** The pieces, the last one closed too. */
  done(): Buffer[] {
    this.close();
    return this.pieces;
  }

  private close(): void {
    if (this.group.length > 0) this.pieces.push(Buffer.concat(this.group, this.grouped));
    this.group = [];
    this.grouped = 0;
  }
}

/**
 * What to store as the body of pieces (BodyPieces): one piece itself; more are written a piece per statement into a
 * temporary table of `tx`'s connection (never logged, emptied at commit) and joined by PostgreSQL in the row's insert,
 * which must run in the same transaction.
 */
export async function bodyValue(tx: Executor, pieces: Buffer[]): Promise<Buffer | SQL> {
  if (pieces.length <= 1) return pieces[0] ?? Buffer.alloc(0);
  await tx.execute(
    sql`create temporary table if not exists inbound_body_pieces (n integer primary key, piece bytea not null) on commit delete rows`,
  );
  for (const [n, piece] of pieces.entries())
    await tx.execute(sql`insert into inbound_body_pieces (n, piece) values (${n}, ${piece})`);
  return sql`(select string_agg(piece, ''::bytea order by n) from inbound_body_pieces)`;
}
