import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddIpRequest,
  BulkImportRequest,
  BulkImportResponse,
  IpAddress,
  IpAddressIdParams,
  IpSuggestion,
} from '@contracts/reputation';
import type { AppContext } from '../platform/context';
import { acceptIdempotencyKeys } from '../platform/http/idempotency';
import { currentUser, requireUser } from '../platform/http/session';
import { requireFeature } from '../plans/plan-gate.service';
import { addIpAddress, bulkImportIpAddresses, deleteIpAddress, listIpAddresses } from './ip-addresses.service';
import { suggestIpAddresses } from './ip-suggestions';

export async function ipAddressRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // onRequest: a signed-out caller gets 401 before its input is parsed or validated.
  const signedIn = requireUser(ctx.db);
  // POSTs that create something replay their first answer for a repeated Idempotency-Key.
  acceptIdempotencyKeys(app, ctx.db);

  r.get(
    '/api/ip-addresses',
    { onRequest: signedIn, schema: { response: { 200: z.array(IpAddress) } } },
    async (request) => listIpAddresses(ctx, currentUser(request).id),
  );

  r.post(
    '/api/ip-addresses',
    { onRequest: signedIn, config: { idempotent: true }, schema: { body: AddIpRequest, response: { 200: IpAddress } } },
    async (request) => addIpAddress(ctx, currentUser(request).id, request.body),
  );

  r.get(
    '/api/ip-addresses/suggestions',
    { onRequest: signedIn, schema: { response: { 200: z.array(IpSuggestion) } } },
    async (request) => suggestIpAddresses(ctx, currentUser(request).id),
  );

  r.post(
    '/api/ip-addresses/bulk-import',
    {
      onRequest: signedIn,
      config: { idempotent: true },
      // Before validation: a plan without the feature gets the plan's answer whatever it sent.
      preValidation: async (request) => requireFeature(currentUser(request), 'bulk_ip_import'),
      schema: { body: BulkImportRequest, response: { 200: BulkImportResponse } },
    },
    async (request) => ({ imported: await bulkImportIpAddresses(ctx, currentUser(request).id, request.body) }),
  );

  r.delete(
    '/api/ip-addresses/:id',
    { onRequest: signedIn, schema: { params: IpAddressIdParams, response: { 204: z.undefined() } } },
    async (request, reply) => {
      await deleteIpAddress(ctx, currentUser(request).id, request.params.id);
      return reply.code(204).send();
    },
  );
}
