import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateDomainBody,
  Domain,
  DomainDetail,
  DomainIdParams,
  DomainList,
  UpdateDomainBody,
} from '@contracts/domains';
import type { AppContext } from '../platform/context';
import { ownershipRecordName, ownershipRecordValue } from './checks/run-checks';
import { AppError } from '../platform/errors';
import { acceptIdempotencyKeys } from '../platform/http/idempotency';
import { currentUser, requireUser } from '../platform/http/session';
import { enforceRateLimit, type RateRule } from '../platform/security/rate-limit';
import { recheckDomain } from './domain-checks.service';
import { deleteUserDomain, findUserDomain, listUserDomains, updateUserDomain, type DomainRow } from './domains.repo';
import { addDomain } from './domains.service';

export function toDomain(row: DomainRow): Domain {
  return {
    id: row.id,
    domain: row.domain,
    type: row.type,
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
/** Each re-check costs a dozen DNS lookups and an HTTPS fetch from a host the user names. */
const VERIFY_PER_USER: RateRule = { name: 'domain-verify-user', limit: 10, windowSeconds: 10 * 60 };

export async function domainRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // onRequest: a signed-out caller gets 401 before its input is parsed or validated.
  const signedIn = requireUser(ctx.db);
  // POSTs that create something replay their first answer for a repeated Idempotency-Key.
  acceptIdempotencyKeys(app, ctx.db);

  /** The user's own domain, or 404 (another user's id behaves as if it did not exist). */
  async function ownDomain(userId: number, id: number): Promise<DomainRow> {
    const row = await findUserDomain(ctx.db, userId, id);
    if (!row) throw new AppError('not_found', NOT_FOUND);
    return row;
  }

  /**
   * A just-added domain checked now. When DNS does not answer, the domain is still added (pending, no
   * checks), as without verifyDns: the scheduled checks take it up, and a retry of the POST would only
   * meet "already added".
   */
  async function checkNewDomain(row: DomainRow): Promise<DomainRow> {
    try {
      return await recheckDomain({ ...ctx, dns: ctx.dns.uncached() }, row);
    } catch (err) {
      if (err instanceof AppError && err.code === 'unavailable') return row;
      throw err;
    }
  }

  r.get('/api/domains', { onRequest: signedIn, schema: { response: { 200: DomainList } } }, async (request) =>
    (await listUserDomains(ctx.db, currentUser(request).id)).map(toDomain),
  );

  // checks stays null unless verifyDns asked for them at once (the public API's flag, ADR 027).
  r.post(
    '/api/domains',
    {
      onRequest: signedIn,
      config: { idempotent: true },
      schema: { body: CreateDomainBody, response: { 200: DomainDetail } },
    },
    async (request) => {
      const userId = currentUser(request).id;
      // The body's schema has checked the name already (contracts/domains.ts DomainName, which the Add Domain form runs
      // too).
      const { domain: name, type, verifyDns } = request.body;
      // Counted before anything is stored: a refused check must not leave a domain behind.
      if (verifyDns) await enforceRateLimit(ctx.db, VERIFY_PER_USER, String(userId));
      const row = await addDomain(ctx.db, userId, name, type);
      if (!verifyDns) return toDetail(row);
      return toDetail(await checkNewDomain(row));
    },
  );

  r.get(
    '/api/domains/:id',
    { onRequest: signedIn, schema: { params: DomainIdParams, response: { 200: DomainDetail } } },
    async (request) => toDetail(await ownDomain(currentUser(request).id, request.params.id)),
  );

  r.patch(
    '/api/domains/:id',
    { onRequest: signedIn, schema: { params: DomainIdParams, body: UpdateDomainBody, response: { 200: Domain } } },
    async (request) => {
      const { dkimSelectors, notes } = request.body;
      const updated = await updateUserDomain(ctx.db, currentUser(request).id, request.params.id, {
        dkimSelectors: dkimSelectors && [...new Set(dkimSelectors)],
        notes: notes === undefined ? undefined : notes?.trim() || null,
      });
      if (!updated) throw new AppError('not_found', NOT_FOUND);
      return toDomain(updated);
    },
  );

  r.delete(
    '/api/domains/:id',
    { onRequest: signedIn, schema: { params: DomainIdParams, response: { 204: z.undefined() } } },
    async (request, reply) => {
      if (!(await deleteUserDomain(ctx.db, currentUser(request).id, request.params.id)))
        throw new AppError('not_found', NOT_FOUND);
      return reply.code(204).send();
    },
  );

  r.post(
    '/api/domains/:id/verify',
    { onRequest: signedIn, schema: { params: DomainIdParams, response: { 200: DomainDetail } } },
    async (request) => {
      const userId = currentUser(request).id;
      await enforceRateLimit(ctx.db, VERIFY_PER_USER, String(userId));
      const row = await ownDomain(userId, request.params.id);
      // The user just published or fixed a record: look now, not in the answers cached by the last check.
      return toDetail(await recheckDomain({ ...ctx, dns: ctx.dns.uncached() }, row));
    },
  );
}
