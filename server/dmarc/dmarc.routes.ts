import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AnalyticsQuery,
  DmarcAnalytics,
  DmarcIntake,
  DmarcReportDetail,
  DmarcReportDomainList,
  DmarcReportList,
  ReportParams,
  ReportsQuery,
  UploadQuery,
  UploadResponse,
} from '@contracts/dmarc';
import type { AppContext } from '../platform/context';
import { deleteReport, getReport, listReportDomains, listReports, receivedFileOf } from './dmarc.repo';
import { dmarcReportAddress } from './dmarc-mailbox';
import { importUpload } from './report-intake';
import { AppError } from '../platform/errors';
import { enforceRateLimit, RATE_RULES } from '../platform/security/rate-limit';
import { acceptIdempotencyKeys } from '../platform/http/idempotency';
import { currentUser, requireUser } from '../platform/http/session';
import { buildAnalytics, ipsToExplain, ipsToName } from './dmarc-analytics';
import { loadAnalyticsRows, loadSourceAuth } from './dmarc-analytics.repo';
import { gatedAnalytics } from './analytics-gate';
import { addPublishedNetworks, nameSources } from './source-names';
import { publishedSpfIncludes } from './published-spf-includes';
import { acceptRawUploads, uploadedFiles } from './upload-body';

export async function dmarcRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // onRequest: a signed-out caller gets 401 before its input is parsed or validated.
  const signedIn = requireUser(ctx.db);
  // POSTs that create something replay their first answer for a repeated Idempotency-Key.
  acceptIdempotencyKeys(app, ctx.db);
  acceptRawUploads(app);

  // The body is the raw report file or a form of report files (at most UPLOAD_LIMIT_BYTES in all, read
  // by upload-body.ts), so it has no zod schema: unpacking and parsing check it.
  r.post(
    '/api/dmarc/upload',
    {
      onRequest: signedIn,
      config: { idempotent: true },
      schema: { querystring: UploadQuery, response: { 200: UploadResponse } },
    },
    async (request) => {
      const { files, form } = uploadedFiles(request.body, request.query.filename ?? 'upload');
      const userId = currentUser(request).id;
      await enforceRateLimit(ctx.db, RATE_RULES.dmarcUploadPerUser, String(userId));
      return importUpload(ctx, userId, files, form);
    },
  );

  r.get(
    '/api/dmarc/reports',
    { onRequest: signedIn, schema: { querystring: ReportsQuery, response: { 200: DmarcReportList } } },
    async (request) => listReports(ctx.db, currentUser(request).id, request.query),
  );

  r.get(
    '/api/dmarc/report-domains',
    { onRequest: signedIn, schema: { response: { 200: DmarcReportDomainList } } },
    async (request) => listReportDomains(ctx.db, currentUser(request).id),
  );

  r.get(
    '/api/dmarc/reports/:id',
    { onRequest: signedIn, schema: { params: ReportParams, response: { 200: DmarcReportDetail } } },
    async (request) => {
      const report = await getReport(ctx.db, currentUser(request).id, request.params.id);
      if (!report) throw new AppError('not_found', 'Report not found');
      return report;
    },
  );

  // A failed import's file as it was received (ADR 017). Bytes are sent as they are: the schema only documents them.
  r.get(
    '/api/dmarc/reports/:id/raw',
    {
      onRequest: signedIn,
      schema: {
        params: ReportParams,
        response: {
          200: z.string().describe('The file as it was received (application/octet-stream), as an attachment.'),
        },
      },
    },
    async (request, reply) => {
      const file = await receivedFileOf(ctx.db, currentUser(request).id, request.params.id);
      if (!file) throw new AppError('not_found', 'No file was kept for this report');
      return (
        reply
          .header('content-type', 'application/octet-stream')
          .header('content-disposition', `attachment; filename="${downloadName(file.fileName)}"`)
          .header('cache-control', 'private, no-store')
          // Fastify sends a Buffer as it is, past the serializer; the type provider types the body by the schema, a string.
          .send(file.data as unknown as string)
      );
    },
  );

  r.delete(
    '/api/dmarc/reports/:id',
    { onRequest: signedIn, schema: { params: ReportParams, response: { 204: z.undefined() } } },
    async (request, reply) => {
      if (!(await deleteReport(ctx.db, currentUser(request).id, request.params.id)))
        throw new AppError('not_found', 'Report not found');
      return reply.code(204).send();
    },
  );

  // The same for everyone while the process runs: made once (and, frozen, written as JSON once).
  const intake = Object.freeze({
    reportAddress: dmarcReportAddress(ctx.env),
    mailboxPolled: Boolean(ctx.env.DMARC_IMAP_URL),
  });
  r.get('/api/dmarc/intake', { onRequest: signedIn, schema: { response: { 200: DmarcIntake } } }, async () => intake);

  r.get(
    '/api/dmarc/analytics',
    { onRequest: signedIn, schema: { querystring: AnalyticsQuery, response: { 200: DmarcAnalytics } } },
    async (request) => {
      const { days, domain } = request.query;
      const userId = currentUser(request).id;
      return gatedAnalytics(JSON.stringify([userId, days, domain ?? null]), async () => {
        const rows = await loadAnalyticsRows(ctx.db, userId, days, domain);
        const names = await nameSources(ctx.dns, ipsToName(rows.sources));
        await addPublishedNetworks(
          ctx.db,
          names,
          rows.sources.map((row) => row.sourceIp),
        );
        const auth = await loadSourceAuth(ctx.db, userId, days, ipsToExplain(rows.sources, names), domain);
        return buildAnalytics(days, domain ?? null, rows, names, auth, await publishedSpfIncludes(ctx.db, userId));
      });
    },
  );
}

/** The name a kept file is downloaded under: the name it came with, reduced to characters no browser or shell misreads. */
export function downloadName(fileName: string): string {
  const safe = fileName
    .replace(/^.*[/\\]/, '')
    .replace(/[^\w.!-]+/g, '_')
    .replace(/^[.]+/, '')
    .slice(-200);
  return safe || 'report';
}
