import fp from 'fastify-plugin';
import { createAuth, type Auth } from '../auth/auth.ts';
import { resolveAuthSecret } from '../auth/secret.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** better-auth: sign-up, sign-in, the mailed codes, access tokens and their keys (under /api/auth). */
    auth: Auth;
  }
}

/** The identity service on the portal's database, mailing its codes through the portal's mailer. */
export const authPlugin = fp(
  async (app) => {
    const { config, database, mailer } = app;
    const secret = resolveAuthSecret(config.authSecret, config.dataDir);
    app.decorate('auth', createAuth({ config, db: database.db, secret, mailer, log: app.log }));
  },
  { name: 'auth', dependencies: ['config', 'database', 'mailer'] },
);
