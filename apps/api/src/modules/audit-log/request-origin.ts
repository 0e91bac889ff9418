import type { FastifyRequest } from 'fastify';
import type { RequestOrigin } from './audit-context.ts';

/** Browsers send a few hundred characters; a longer header is cut rather than stored whole. */
const USER_AGENT_MAX = 512;

/** The request's origin for the audit log, read by the route so the service never sees the request. */
export function requestOrigin(request: FastifyRequest): RequestOrigin {
  const userAgent = request.headers['user-agent'];
  return {
    ip: request.ip,
    userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
    requestId: request.id,
  };
}
