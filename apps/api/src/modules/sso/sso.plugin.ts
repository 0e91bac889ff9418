import fp from 'fastify-plugin';
import { dnsDomainProofLookup } from './email-domain-proof.ts';
import { ssoService, type SsoService } from './sso.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sso: SsoService;
  }
}

/**
 * `app.sso`: the single sign-on service, built once for its routes and for the public configuration,
 * which tells the sign-in page whether to offer SSO.
 */
export const ssoPlugin = fp(
  async (app) => {
    app.decorate(
      'sso',
      ssoService({
        db: app.database.db,
        config: app.config,
        domainProofLookup: dnsDomainProofLookup(app.config.dnsServers),
        log: app.log,
      }),
    );
  },
  { name: 'sso', dependencies: ['config', 'database'] },
);
