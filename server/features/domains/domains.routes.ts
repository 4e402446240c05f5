import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DomainList, type Domain } from '../../../contracts/domains';
import type { AppContext } from '../../app-context';
import { domains } from '../../db/schema/index';
import { currentUser, requireUser } from '../../http/session';

type DomainRow = typeof domains.$inferSelect;

export function toDomain(row: DomainRow): Domain {
  return {
    id: row.id,
    domain: row.domain,
    status: row.status,
    isVerified: row.isVerified,
    verificationRecord: { name: `_inboxpulse.${row.domain}`, value: `inboxpulse-verification=${row.verificationToken}` },
    dkimSelectors: row.dkimSelectors,
    notes: row.notes,
    spfRecord: row.spfRecord,
    dkimRecord: row.dkimRecord,
    dmarcRecord: row.dmarcRecord,
    spfStatus: row.spfStatus,
    dkimStatus: row.dkimStatus,
    dmarcStatus: row.dmarcStatus,
    reputationScore: row.reputationScore,
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function domainRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/domains', { preHandler: requireUser(ctx.db), schema: { response: { 200: DomainList } } }, async (request) => {
    const rows = await ctx.db
      .select()
      .from(domains)
      .where(eq(domains.userId, currentUser(request).id))
      .orderBy(desc(domains.createdAt), desc(domains.id));
    return rows.map(toDomain);
  });
}
