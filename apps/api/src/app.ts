import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import helmet from 'helmet';
import fastifyStatic from '@fastify/static';
import { OPERATOR_API_PREFIX, REGION_KEYS } from '@portal/contracts';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { SESSION_COOKIE_NAME } from './auth/auth.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { registerApiReference } from './docs/api-reference.ts';
import { AppError } from './errors.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.ts';
import { auditLogJobs } from './modules/audit-log/audit-log.jobs.ts';
import { auditLogRoutes } from './modules/audit-log/audit-log.routes.ts';
import { ssoJobs } from './modules/sso/sso.jobs.ts';
import { ssoPlugin } from './modules/sso/sso.plugin.ts';
import { ssoRoutes } from './modules/sso/sso.routes.ts';
import { applicationsJobs } from './modules/applications/applications.jobs.ts';
import { applicationsRoutes } from './modules/applications/applications.routes.ts';
import { billingJobs } from './modules/billing/billing.jobs.ts';
import { billingPlugin } from './modules/billing/billing.plugin.ts';
import { invoicesRoutes, planUsageRoutes, transactionsRoutes } from './modules/billing/billing.routes.ts';
import { INVOICE_LINKS_PREFIX } from './modules/billing/invoice-links.ts';
import { ledgerJobs } from './modules/ledger/ledger.jobs.ts';
import { ledgerPlugin } from './modules/ledger/ledger.plugin.ts';
import { devMailboxRoutes } from './modules/dev-mailbox/dev-mailbox.routes.ts';
import { identityAudit } from './modules/identity/identity-audit.ts';
import { identityRoutes } from './modules/identity/identity.routes.ts';
import { invitationsRoutes, publicInvitationsRoutes } from './modules/invitations/invitations.routes.ts';
import { membersRoutes, rolesRoutes } from './modules/members/members.routes.ts';
import { requireMembership } from './modules/members/members.service.ts';
import { operationsRoutes } from './modules/operations/operations.routes.ts';
import { operatorsJobs } from './modules/operators/operators.jobs.ts';
import { operatorsRoutes } from './modules/operators/operators.routes.ts';
import { publicConfigRoutes } from './modules/public-config/public-config.routes.ts';
import { paymentsJobs } from './modules/payments/payments.jobs.ts';
import { usageAlertsPlugin } from './modules/usage-alerts/usage-alerts.jobs.ts';
import { usageAlertsRoutes } from './modules/usage-alerts/usage-alerts.routes.ts';
import { paymentsPlugin } from './modules/payments/payments.plugin.ts';
import { accountPaymentsRoutes, transactionPaymentsRoutes } from './modules/payments/payments.routes.ts';
import { STRIPE_WEBHOOK_PREFIX, stripeWebhookRoutes } from './modules/payments/stripe-webhook.routes.ts';
import { regionalSessionsRoutes } from './modules/regional-sessions/regional-sessions.routes.ts';
import { utilsRoutes } from './modules/utils/utils.routes.ts';
import { mountEmbeddedCardSandbox } from './payments/embedded-card-sandbox.ts';
import { authPlugin } from './plugins/auth.ts';
import { authenticatePlugin } from './plugins/authenticate.ts';
import { configPlugin } from './plugins/config.ts';
import { databasePlugin } from './plugins/database.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { gracefulClosePlugin } from './plugins/graceful-close.ts';
import { jobQueuePlugin } from './plugins/job-queue.ts';
import { mailerPlugin } from './plugins/mailer.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { paymentGatewayPlugin } from './plugins/payment-gateway.ts';
import { rateLimitsPlugin } from './plugins/rate-limits.ts';
import { regionClientPlugin } from './plugins/region-client.ts';
import { requestIdGenerator, requestIdLogging, requestIdPlugin } from './plugins/request-id.ts';
import { requestGuardsPlugin } from './plugins/request-guards.ts';
import { sharedSecretsPlugin } from './plugins/shared-secrets.ts';
import { mountEmbeddedRegions } from './regions/embedded-regions.ts';
import { createPageRenderer } from './web/server-render.ts';
import { readPageManifest, sendPageVariant, sendRenderedPage, signedInPageVariant } from './web/spa-page.ts';

/** API answers below this many bytes are sent as they are. */
export const COMPRESSION_THRESHOLD_BYTES = 2048;

const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface BuildAppOptions {
  config: Config;
  database: Database;
}

/** Origins other than the portal's that browsers send card data to. */
function cardSandboxOrigins(config: Config): string[] {
  if (config.payments.provider !== 'sandbox' || config.payments.cardSandbox.embedded) return [];
  return [new URL(config.payments.cardSandbox.tokenizeUrl).origin];
}

/** The regions at their own addresses (REGION_*_URL), which the pages call and post the console sign-in to. */
function remoteRegionOrigins(config: Config): string[] {
  const remote = REGION_KEYS.filter((key) => !config.embeddedRegions.includes(key));
  return [...new Set(remote.map((key) => new URL(config.regionUrls[key]).origin))];
}

/**
 * Where Stripe's card form comes from and talks to, with PAYMENT_PROVIDER=stripe only: Stripe.js
 * from Stripe's CDN (it cannot be bundled), its Elements in frames, its calls to Stripe's API.
 */
function stripeSources(config: Config) {
  const stripe = config.payments.provider === 'stripe';
  const sources = (...origins: string[]) => (stripe ? origins : []);
  return {
    script: sources('https://js.stripe.com', 'https://*.js.stripe.com'),
    frame: sources('https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'),
    connect: sources('https://api.stripe.com'),
  };
}

/** Builds the portal server without listening: server.ts listens, tests use inject. */
export async function buildApp({ config, database }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, mixin: requestIdLogging.mixin },
    childLoggerFactory: requestIdLogging.childLoggerFactory,
    // Only a trusted proxy may name the client address: the per-IP rate limit counts by it.
    trustProxy: config.trustProxy,
    // Only a trusted proxy may name the request id too (X-Request-Id); other requests get a UUID.
    genReqId: requestIdGenerator(config.trustProxy),
    bodyLimit: 256 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(requestIdPlugin);
  await app.register(gracefulClosePlugin);
  // Shared infrastructure, once for the whole server (docs/architecture.md lists each plugin);
  // the modules below reach it through the decorators.
  await app.register(configPlugin, { config });
  await app.register(databasePlugin, { database });
  await app.register(sharedSecretsPlugin);
  await app.register(errorHandlerPlugin);
  await app.register(requestGuardsPlugin);
  await app.register(mailerPlugin);
  await app.register(authPlugin, { audit: identityAudit });
  await app.register(authenticatePlugin);
  await app.register(jobQueuePlugin);
  await app.register(metricsPlugin);
  await app.register(rateLimitsPlugin);
  await app.register(regionClientPlugin);
  await app.register(paymentGatewayPlugin);
  // The modules' services, each built once here for its routes, its jobs and the operator API.
  await app.register(ledgerPlugin);
  await app.register(billingPlugin);
  await app.register(usageAlertsPlugin);
  await app.register(paymentsPlugin);
  await app.register(ssoPlugin);
  const stripe = stripeSources(config);

  // The security headers, built once: @fastify/helmet built helmet's middleware (and parsed the
  // policy) again on every request, about 3 % of a session check's CPU.
  const setSecurityHeaders = helmet({
    // HSTS only where the portal is served over https; on plain http it would pin a browser to nothing.
    strictTransportSecurity: config.publicUrl.startsWith('https:') ? { maxAge: 31_536_000 } : false,
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'", ...stripe.script],
        ...(stripe.frame.length > 0 ? { frameSrc: stripe.frame } : {}),
        // The card form posts to the sandbox's tokeniser: this origin unless CARD_SANDBOX_URL names another.
        connectSrc: [
          "'self'",
          ...cardSandboxOrigins(config),
          ...remoteRegionOrigins(config),
          ...stripe.connect,
        ],
        // The console tab is signed in by a form posted to its region (decision 034).
        formAction: ["'self'", ...remoteRegionOrigins(config)],
        upgradeInsecureRequests: null,
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) =>
    setSecurityHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined)),
  );

  // Larger API answers (an application list, the countries) go out compressed; small ones, the
  // session check among them, are not worth the CPU. Brotli at quality 4 compresses about as well
  // as gzip 6 at a similar cost; quality 11 is for the build's precompressed assets only.
  await app.register(compress, {
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });

  // The OpenAPI document is generated from the same zod schemas that validate the requests, and
  // shown to people at /api/docs.
  await registerApiReference(app, config);

  await app.register(operationsRoutes);
  await app.register(identityRoutes, { prefix: '/api/auth' });
  await app.register(publicConfigRoutes, { prefix: '/api/v1/config' });
  await app.register(utilsRoutes, { prefix: '/api/v1/utils' });
  await app.register(accountsRoutes, { prefix: '/api/v1/accounts' });
  await app.register(auditLogRoutes, { prefix: '/api/v1/audit-log', requireMembership });
  await app.register(applicationsRoutes, { prefix: '/api/v1/applications' });
  await app.register(apiKeysRoutes, { prefix: '/api/v1/applications' });
  await app.register(applicationsJobs);
  await app.register(ledgerJobs);
  await app.register(billingJobs);
  await app.register(paymentsJobs);
  await app.register(operatorsJobs);
  await app.register(ssoJobs);
  await app.register(auditLogJobs);
  await app.register(transactionsRoutes, { prefix: '/api/v1/transactions' });
  await app.register(transactionPaymentsRoutes, { prefix: '/api/v1/transactions' });
  await app.register(accountPaymentsRoutes, { prefix: '/api/v1/accounts' });
  if (config.payments.provider === 'stripe') {
    await app.register(stripeWebhookRoutes, { prefix: STRIPE_WEBHOOK_PREFIX });
  }
  await app.register(planUsageRoutes, { prefix: '/api/v1/accounts' });
  await app.register(usageAlertsRoutes, { prefix: '/api/v1/usage-alerts' });
  await app.register(invoicesRoutes, { prefix: INVOICE_LINKS_PREFIX });
  await app.register(membersRoutes, { prefix: '/api/v1/members' });
  await app.register(rolesRoutes, { prefix: '/api/v1/roles' });
  await app.register(invitationsRoutes, { prefix: '/api/v1/invitations' });
  await app.register(ssoRoutes, { prefix: '/api/v1/sso' });
  await app.register(publicInvitationsRoutes, { prefix: '/api/invitations' });
  await app.register(regionalSessionsRoutes);
  await app.register(operatorsRoutes, { prefix: OPERATOR_API_PREFIX });
  await mountEmbeddedRegions(app, { config, database });
  await mountEmbeddedCardSandbox(app, { config, database });
  if (config.devMailbox) {
    await app.register(devMailboxRoutes, { prefix: '/dev/mailbox' });
  }

  const webDist = config.webDistDir ?? DEFAULT_WEB_DIST;
  const serveSpa = fs.existsSync(path.join(webDist, 'index.html'));
  if (serveSpa) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      // The build writes .br and .gz copies of every text asset; each request gets the best it accepts.
      preCompressed: true,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const pageManifest = serveSpa ? readPageManifest(webDist) : undefined;
  if (serveSpa && !pageManifest)
    app.log.warn('the web build has no page manifest: its pages go out unrendered');
  const signedInPage = pageManifest && signedInPageVariant(pageManifest);
  const sessionCookie = `${SESSION_COOKIE_NAME}=`;
  const holdsSession = (request: FastifyRequest) => request.headers.cookie?.includes(sessionCookie) ?? false;
  const pageRenderer =
    pageManifest &&
    createPageRenderer(app, {
      webDist,
      shells: pageManifest.renderedPage,
      rendersPerSecond: config.serverRendersPerSecond,
      holdsSession,
    });
  // A listening server loads the server render before its first visitor; in-process tests only
  // when they ask for a page.
  if (pageRenderer) app.addHook('onListen', () => pageRenderer.preload());

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    // A missing build file (a page of an earlier release asking for a chunk that is gone) is a 404,
    // never the SPA page, so the browser's module loader fails at once instead of parsing HTML.
    const isApiOrAsset = ['/api/', '/dev/', '/regions/', '/card-sandbox/', '/assets/'].some((prefix) =>
      pathname.startsWith(prefix),
    );
    if (!isApiOrAsset && serveSpa && (request.method === 'GET' || request.method === 'HEAD')) {
      const rendered = request.method === 'GET' ? await pageRenderer?.render(request) : undefined;
      if (rendered) {
        reply.code(200).header('cache-control', rendered.signedIn ? 'private, no-store' : 'no-cache');
        return sendRenderedPage(request, reply, rendered.html);
      }
      reply.header('cache-control', 'no-cache');
      if (signedInPage) {
        // The page depends on whether the browser holds a session.
        reply.header('vary', 'Accept-Encoding, Cookie');
        if (holdsSession(request)) return sendPageVariant(request, reply, signedInPage);
      }
      return reply.sendFile('index.html');
    }
    return reply.status(404).send(new AppError('NOT_FOUND').toBody());
  });

  return app;
}
