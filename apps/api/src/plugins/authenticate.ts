import { permissionsForRoles, type Permission } from '@portal/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser, SessionVerifier } from '../auth/session.ts';
import { AppError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    sessionUser?: SessionUser;
  }
}

export function createAuthenticate(verifier: SessionVerifier) {
  /** preHandler: a valid session cookie or bearer access token, or 401. */
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply) {
    const sessionUser = await verifier.fromHeaders({
      cookie: request.headers.cookie,
      authorization: request.headers.authorization,
    });
    if (!sessionUser) throw new AppError('UNAUTHORIZED');
    request.sessionUser = sessionUser;
  };
}

export function requireSessionUser(request: FastifyRequest): SessionUser {
  if (!request.sessionUser) throw new AppError('UNAUTHORIZED');
  return request.sessionUser;
}

/** The server-side permission check: the role's permissions from the shared table, never "all". */
export function assertPermission(roleId: string, permission: Permission) {
  if (!permissionsForRoles([roleId]).includes(permission)) throw new AppError('FORBIDDEN');
}
