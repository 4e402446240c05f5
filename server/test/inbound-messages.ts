import { eq, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { inboundMessages } from '../platform/db/schema/index';

/** How many received messages still wait for their job to process them: 0 once each has been handled. */
export async function unprocessedInbound(db: Db): Promise<number> {
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(inboundMessages)
    .where(eq(inboundMessages.status, 'received'));
  return n;
}
