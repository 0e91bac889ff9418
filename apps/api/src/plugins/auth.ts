import fp from 'fastify-plugin';
import { createAuth, GOOGLE_PROVIDER_ID, type Auth } from '../auth/auth.ts';
import { resolveAuthSecret } from '../auth/secret.ts';
import type { IdentityAudit } from '../auth/sign-in-audit.ts';
import { ConfigError } from '../config.ts';
import type { Db } from '../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** better-auth: sign-up, sign-in, the mailed codes, access tokens and their keys (under /api/auth). */
    auth: Auth;
  }
}

/**
 * The identity service on the portal's database, mailing its codes through the portal's mailer and
 * telling the organisation audit log of sign-ins (given: the audit log is a module above plugins).
 */
export const authPlugin = fp<{ audit: (db: Db) => IdentityAudit }>(
  async (app, { audit }) => {
    const { config, database, mailer } = app;
    const secret = resolveAuthSecret(config.authSecret, config.dataDir);
    const auth = createAuth({ config, db: database.db, secret, mailer, log: app.log, audit: audit(database.db) });
    if (config.google) await requireGoogleProvider(auth, config.google.issuer, config.google.discoveryUrl);
    app.decorate('auth', auth);
  },
  { name: 'auth', dependencies: ['config', 'database', 'mailer'] },
);

/**
 * Google's endpoints are discovered once, when better-auth starts; a provider it had to skip (the
 * issuer unreachable, a document without signing keys) or one naming another issuer would leave a
 * Google button that cannot work, so the portal refuses to start instead.
 */
async function requireGoogleProvider(auth: Auth, issuer: string, discoveryUrl: string) {
  const context = await auth.$context;
  const provider = context.socialProviders.find((candidate) => candidate.id === GOOGLE_PROVIDER_ID);
  if (!provider) {
    throw new ConfigError(
      `Google sign-in: no usable OpenID configuration at ${discoveryUrl} (unreachable, or without an ` +
        'issuer, endpoints and signing keys). Check GOOGLE_ISSUER, or unset GOOGLE_CLIENT_ID to start without Google.',
    );
  }
  const discovered = provider.issuer?.replace(/\/+$/, '');
  if (discovered !== issuer) {
    throw new ConfigError(
      `Google sign-in: ${discoveryUrl} names the issuer ${String(provider.issuer)}, not GOOGLE_ISSUER ${issuer}.`,
    );
  }
}
