import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainIdParams } from '@contracts/domains';
import { IpAddressIdParams } from '@contracts/reputation';
import {
  CreateNoteRequest,
  Diagnosis,
  DomainNoteParams,
  DomainTimeline,
  IpTimeline,
  TimelineNote,
  TimelineQuery,
} from '@contracts/timeline';
import type { AppContext } from '../platform/context';
import { acceptIdempotencyKeys } from '../platform/http/idempotency';
import { currentUser, requireUser } from '../platform/http/session';
import { addNote, domainDiagnosis, domainTimeline, ipTimeline, removeNote } from './timeline.service';

/** A domain's (or sending IP's) deliverability timeline, its diagnosis and the user's notes on it (ADR 035). Session or API key. */
export async function timelineRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requireUser(ctx.db);
  acceptIdempotencyKeys(app, ctx.db);

  r.get(
    '/api/domains/:id/timeline',
    {
      onRequest: signedIn,
      schema: { params: DomainIdParams, querystring: TimelineQuery, response: { 200: DomainTimeline } },
    },
    async (request) => domainTimeline(ctx.db, currentUser(request).id, request.params.id, request.query.days),
  );

  r.get(
    '/api/domains/:id/diagnosis',
    {
      onRequest: signedIn,
      schema: { params: DomainIdParams, querystring: TimelineQuery, response: { 200: Diagnosis } },
    },
    async (request) => domainDiagnosis(ctx.db, currentUser(request).id, request.params.id, request.query.days),
  );

  r.post(
    '/api/domains/:id/notes',
    {
      onRequest: signedIn,
      config: { idempotent: true },
      schema: { params: DomainIdParams, body: CreateNoteRequest, response: { 201: TimelineNote } },
    },
    async (request, reply) =>
      reply.code(201).send(await addNote(ctx.db, currentUser(request).id, request.params.id, request.body)),
  );

  r.delete(
    '/api/domains/:id/notes/:noteId',
    { onRequest: signedIn, schema: { params: DomainNoteParams, response: { 204: z.undefined() } } },
    async (request, reply) => {
      await removeNote(ctx.db, currentUser(request).id, request.params.id, request.params.noteId);
      return reply.code(204).send();
    },
  );

  r.get(
    '/api/ip-addresses/:id/timeline',
    {
      onRequest: signedIn,
      schema: { params: IpAddressIdParams, querystring: TimelineQuery, response: { 200: IpTimeline } },
    },
    async (request) => ipTimeline(ctx.db, currentUser(request).id, request.params.id, request.query.days),
  );
}
