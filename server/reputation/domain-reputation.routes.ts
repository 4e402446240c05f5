import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainReputation } from '@contracts/reputation';
import type { AppContext } from '../platform/context';
import { currentUser, requireUser } from '../platform/http/session';
import { requestRegistrationLookUp } from './look-up-domain-registration.job';
import { listUserResults } from './ip-addresses.repo';
import { listUserDomainReputation, type DomainReputationRow } from '../domains/domain-reputation.service';
import { groupResults, toReputationDetails } from './ip-addresses.service';

/** Whole years from `since` to `now` by the calendar (a domain registered on 29 Feb turns one on 1 Mar). */
export function wholeYearsSince(since: Date, now = new Date()): number {
  const years = now.getUTCFullYear() - since.getUTCFullYear();
  const anniversary = new Date(since);
  anniversary.setUTCFullYear(since.getUTCFullYear() + years);
  return Math.max(0, anniversary > now ? years - 1 : years);
}

function toDomainReputation(
  row: DomainReputationRow,
  details: DomainReputation['reputationDetails'],
): DomainReputation {
  const lastChecked = details.reduce<string | null>(
    (latest, d) => (latest === null || d.checkedAt > latest ? d.checkedAt : latest),
    null,
  );
  return {
    id: row.id,
    domain: row.domain,
    reputationScore: row.reputationScore === null ? null : Math.round(row.reputationScore),
    scoreFactors: row.reputationFactors,
    // Unknown stays unknown: the screen says so rather than showing an age of 0.
    domainAge: row.registeredAt ? wholeYearsSince(row.registeredAt) : null,
    registrar: row.registrar,
    blacklistCount: details.filter((d) => d.listed && !d.ignored).length,
    totalProviders: details.length,
    lastChecked,
    reputationDetails: details,
  };
}

export async function domainReputationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireUser(ctx.db);

  r.get(
    '/api/reputation/domains',
    { onRequest: signedIn, schema: { response: { 200: z.array(DomainReputation) } } },
    async (request) => {
      const userId = currentUser(request).id;
      const [rows, results] = await Promise.all([
        listUserDomainReputation(ctx.db, userId),
        listUserResults(ctx.db, userId, 'domain'),
      ]);
      // A domain added since the daily look-ups gets its registration now, not tomorrow.
      for (const row of rows) if (!row.rdapCheckedAt) await requestRegistrationLookUp(ctx.jobs, row.id);
      const byDomain = groupResults(results, 'domainId');
      return rows.map((row) => toDomainReputation(row, toReputationDetails(byDomain.get(row.id) ?? [])));
    },
  );
}
