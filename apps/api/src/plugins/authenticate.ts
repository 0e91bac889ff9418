import { permissionsForRoles, type Permission } from '@portal/contracts';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SessionVerifier, type SessionUser } from '../auth/session.ts';
import { AppError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The session check every API request makes (decision 003): a session cookie or a bearer access token. */
    sessions: SessionVerifier;
    /** onRequest hook of the signed-in routes: a valid session, or 401 before the body is read. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    /** The caller, once `authenticate` accepted the request. */
    sessionUser: SessionUser | undefined;
  }
  interface FastifyContextConfig {
    /**
     * The route answers a session that must first enrol a second factor (the account read): every
     * other signed-in route refuses it with 403 TWO_FACTOR_ENROLMENT_REQUIRED.
     */
    duringTwoFactorEnrolment?: boolean;
  }
}

/** The session verifier and the hook built on it; it checks cookies with the secret better-auth signs them with. */
export const authenticatePlugin = fp(
  async (app) => {
    const { config, database, auth } = app;
    const sessions = new SessionVerifier(database, auth.options.secret, config.publicUrl);
    app.decorate('sessions', sessions);
    // Answers are kept only while the database reports every change to what they were read from.
    let unsubscribe: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      unsubscribe = await database.sessionChanges.subscribe(sessions.cache);
    });
    app.addHook('onClose', async () => unsubscribe?.());
    app.decorateRequest('sessionUser', undefined);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const sessionUser = await sessions.fromHeaders({
        cookie: request.headers.cookie,
        authorization: request.headers.authorization,
      });
      if (!sessionUser) throw new AppError('UNAUTHORIZED');
      if (
        sessionUser.twoFactorEnrolmentRequired &&
        request.routeOptions.config.duringTwoFactorEnrolment !== true
      )
        throw new AppError('TWO_FACTOR_ENROLMENT_REQUIRED');
      request.sessionUser = sessionUser;
    });
  },
  { name: 'authenticate', dependencies: ['config', 'database', 'auth'] },
);

export function requireSessionUser(request: FastifyRequest): SessionUser {
  if (!request.sessionUser) throw new AppError('UNAUTHORIZED');
  return request.sessionUser;
}

/** The server-side permission check: the role's permissions from the shared table, never "all". */
export function assertPermission(roleId: string, permission: Permission) {
  if (!permissionsForRoles([roleId]).includes(permission)) throw new AppError('FORBIDDEN');
}
