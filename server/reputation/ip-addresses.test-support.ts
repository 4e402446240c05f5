import type { Db } from '../platform/db/client';
import { ipAddresses } from '../platform/db/schema/index';

/** A dedicated IP the user monitors, added straight to the table (its own tests cover adding one through the API). */
export async function addIp(db: Db, userId: number, ip: string) {
  const [row] = await db.insert(ipAddresses).values({ userId, ipAddress: ip, type: 'dedicated' }).returning();
  return row;
}
