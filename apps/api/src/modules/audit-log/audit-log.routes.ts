import { ListAuditLogQuerySchema, ListAuditLogResponseSchema } from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireSessionUser } from '../../plugins/authenticate.ts';
import { auditLogService, type MembershipOf } from './audit-log.service.ts';

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
}
