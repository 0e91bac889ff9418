import { Readable } from 'node:stream';
import { ExportAuditLogQuerySchema, ListAuditLogQuerySchema, ListAuditLogResponseSchema } from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSessionUser } from '../../plugins/authenticate.ts';
import { AUDIT_LOG_CSV_COLUMNS } from './audit-log.export.ts';
import { auditLogService, type MembershipOf } from './audit-log.service.ts';

/** The export as the route sends it (a stream of the file), as the document describes it (text). */
const AuditLogCsvSchema = z.custom<Readable>((value) => value instanceof Readable).meta({
  type: 'string',
  description:
    `UTF-8 with a byte order mark, CRLF line ends, quoted as RFC 4180 says; the columns ${AUDIT_LOG_CSV_COLUMNS.join(', ')} ` +
    '(time in ISO 8601 UTC, changes as JSON). A field that a spreadsheet would take for a formula ' +
    '(starting with =, +, -, @, tab or carriage return) starts with an apostrophe.',
});

export interface AuditLogRoutesOptions {
  requireMembership: MembershipOf;
}

/** /api/v1/audit-log: the caller's organisation's audit log, newest first (VIEW_AUDIT_LOG). */
export async function auditLogRoutes(app: FastifyInstance, { requireMembership }: AuditLogRoutesOptions) {
  const service = auditLogService({ db: app.database.db, requireMembership });
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Before the query is checked: a caller without a session learns 401, not what a valid query looks like.
  r.addHook('onRequest', app.authenticate);

  r.get(
    '/',
    { schema: { querystring: ListAuditLogQuerySchema, response: { 200: ListAuditLogResponseSchema } } },
    async (request) => service.list(requireSessionUser(request), request.query),
  );

  r.get(
    '/export',
    {
      schema: {
        querystring: ExportAuditLogQuerySchema,
        response: { 200: { content: { 'text/csv': { schema: AuditLogCsvSchema } } } },
      },
      // Fastify would answer HEAD by reading the whole export and dropping it.
      exposeHeadRoute: false,
      // A million entries are some 300 MB of CSV: gzip at its fastest level still shrinks them about
      // tenfold at a fraction of Brotli's cost per byte, which held the export to a few thousand rows/s.
      compress: { encodings: ['gzip'], zlibOptions: { level: 1 } },
    },
    async (request, reply) => {
      const csv = await service.exportCsv(requireSessionUser(request), request.query);
      // Streamed as the batches are read, a chunk taken only when the socket has room; Fastify
      // destroys the stream when the client goes away, which ends the reading.
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(Readable.from(csv.chunks, { objectMode: false }));
    },
  );
}
