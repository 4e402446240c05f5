import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomBytes } from 'node:crypto';
import { CreateDomainBody, Domain, DomainDetail, DomainIdParams, DomainList, UpdateDomainBody } from '../../contracts/domains';
import { MessageBody } from '../../contracts/errors';
import type { AppContext } from '../platform/context';
import { isUniqueViolation } from '../platform/db/errors';
import { domains } from '../platform/db/schema/index';
import { ownershipRecordName, ownershipRecordValue } from './checks/run-checks';
import { AppError } from '../platform/errors';
import { currentUser, requireUser } from '../platform/http/session';
import { recheckDomain, type DomainRow } from './domain-checks.service';
import { validateDomainName } from './domain-name';

export function toDomain(row: DomainRow): Domain {
  return {
    id: row.id,
    domain: row.domain,
    status: row.status,
    isVerified: row.isVerified,
    verificationRecord: { name: ownershipRecordName(row.domain), value: ownershipRecordValue(row.verificationToken) },
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

const toDetail = (row: DomainRow): DomainDetail => ({ ...toDomain(row), checks: row.checks ?? null });
const NOT_FOUND = 'Domain not found';

export async function domainRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireUser(ctx.db);

  /** The user's own domain, or 404 (another user's id behaves as if it did not exist). */
  async function ownDomain(userId: number, id: number): Promise<DomainRow> {
    const [row] = await ctx.db.select().from(domains).where(and(eq(domains.id, id), eq(domains.userId, userId)));
    if (!row) throw new AppError('not_found', NOT_FOUND);
    return row;
  }

  r.get('/api/domains', { preHandler: signedIn, schema: { response: { 200: DomainList } } }, async (request) => {
    const rows = await ctx.db
      .select()
      .from(domains)
      .where(eq(domains.userId, currentUser(request).id))
      .orderBy(desc(domains.createdAt), desc(domains.id));
    return rows.map(toDomain);
  });

  r.post('/api/domains', { preHandler: signedIn, schema: { body: CreateDomainBody, response: { 200: Domain } } }, async (request) => {
    const name = validateDomainName(request.body.domain);
    try {
      const [row] = await ctx.db
        .insert(domains)
        .values({ userId: currentUser(request).id, domain: name, verificationToken: randomBytes(16).toString('hex') })
        .returning();
      return toDomain(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('conflict', 'You already added this domain');
      throw err;
    }
  });

  r.get('/api/domains/:id', { preHandler: signedIn, schema: { params: DomainIdParams, response: { 200: DomainDetail } } }, async (request) =>
    toDetail(await ownDomain(currentUser(request).id, request.params.id)),
  );

  r.patch(
    '/api/domains/:id',
    { preHandler: signedIn, schema: { params: DomainIdParams, body: UpdateDomainBody, response: { 200: Domain } } },
    async (request) => {
      const row = await ownDomain(currentUser(request).id, request.params.id);
      const { dkimSelectors, notes } = request.body;
      const [updated] = await ctx.db
        .update(domains)
        .set({
          ...(dkimSelectors !== undefined ? { dkimSelectors: [...new Set(dkimSelectors)] } : {}),
          ...(notes !== undefined ? { notes: notes?.trim() || null } : {}),
        })
        .where(eq(domains.id, row.id))
        .returning();
      return toDomain(updated);
    },
  );

  r.delete('/api/domains/:id', { preHandler: signedIn, schema: { params: DomainIdParams, response: { 200: MessageBody } } }, async (request) => {
    const row = await ownDomain(currentUser(request).id, request.params.id);
    await ctx.db.delete(domains).where(eq(domains.id, row.id));
    return { message: 'Domain Deleted' };
  });

  r.post('/api/domains/:id/verify', { preHandler: signedIn, schema: { params: DomainIdParams, response: { 200: DomainDetail } } }, async (request) => {
    const row = await ownDomain(currentUser(request).id, request.params.id);
    return toDetail(await recheckDomain(ctx.db, ctx.dns, row));
  });
}
