import crypto from 'node:crypto';
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyRequest } from 'fastify';
import { createRemoteJWKSet, customFetch, jwtVerify, type JWTPayload } from 'jose';
import {
  CreateNetworkRequestSchema,
  FirstActivityQuerySchema,
  findControlCharacterInRequest,
  PORTAL_SSO_IDENTIFIER,
  RegionCreateApiKeyRequestSchema,
  RegionExpireApiKeyRequestSchema,
  REGIONAL_SESSION_CHECK_PATH,
  REGION_PATHS,
  REGIONS,
  SdkSessionRequestSchema,
  messageText,
  ssoDomainField,
  UpdateNetworkRequestSchema,
  UsageQuerySchema,
  type Network,
  type RegionApiKey,
  type RegionKey,
} from '@portal/contracts';
import { z } from 'zod';
import { consolePage, consoleSignInPage } from './console.ts';
import { readCookie, sessionCookie } from './cookie.ts';
import { sameSecret } from './secret.ts';
import { ApiKeyConflict, type RegionStore, type StoredApiKey, type StoredNetwork } from './store.ts';

export interface RegionsOptions {
  /** The regions this process hosts, each under its own prefix. */
  regions: readonly RegionKey[];
  /**
   * Path prefix of a region's API base; defaults to /regions/{sg|eu|us}. Not named `prefix`,
   * which Fastify reads from plugin options as a string.
   */
  basePath?: (region: RegionKey) => string;
  /** The portal's public URL: issuer and audience of its access tokens, home of its JWKS. */
  portalUrl: string;
  /**
   * Origins whose pages may call the browser API (CORS, with credentials) and open the console:
   * the portal's, written as the browser names it. Defaults to the origin of `portalUrl`.
   */
  portalOrigins?: readonly string[];
  /** Bearer token of the server-to-server admin API. */
  adminToken: string;
  /** Where browsers reach this server (console URLs are built from it). */
  publicBaseUrl: string;
  /** How long a new network reports `provisioning`. */
  provisioningDelayMs?: number;
  store: RegionStore;
  /** Used for the portal's JWKS and its application check; tests and embedding may supply their own. */
  fetch?: typeof fetch;
}

export const DEFAULT_PROVISIONING_DELAY_MS = 3000;

// REGION_PATHS builds request paths and URL-encodes its arguments, so route patterns are spelled out.
const NETWORK_ROUTE = `${REGION_PATHS.networks}/:networkId`;
const API_KEYS_ROUTE = `${NETWORK_ROUTE}/api-keys`;
const API_KEY_ROUTE = `${API_KEYS_ROUTE}/:keyId`;

export function defaultRegionPrefix(region: RegionKey): string {
  return `/regions/${region.toLowerCase()}`;
}

class RegionError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new RegionError(400, 'VALIDATION_ERROR', z.prettifyError(result.error));
  return result.data;
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim();
}

function toNetworkBody(network: StoredNetwork): Network {
  return {
    networkId: network.networkId,
    applicationId: network.applicationId,
    name: network.name,
    status: network.status,
    consoleUrl: network.consoleUrl,
    region: network.region,
  };
}

function toApiKeyBody(key: StoredApiKey): RegionApiKey {
  return {
    id: key.keyId,
    name: key.name,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    status: key.status,
  };
}

/** Why the SDK may not use a stopped key, with the time it stopped. */
function stoppedKeyRefusal(key: StoredApiKey): RegionError | undefined {
  if (key.status === 'revoked' && key.revokedAt)
    return new RegionError(
      401,
      'API_KEY_REVOKED',
      `This API key was revoked at ${key.revokedAt.toISOString()}`,
    );
  if (key.status === 'expired' && key.expiresAt)
    return new RegionError(
      401,
      'API_KEY_EXPIRED',
      `This API key stopped working at ${key.expiresAt.toISOString()}`,
    );
  return undefined;
}

function currentMonth(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

interface RegionScopeOptions extends RegionsOptions {
  region: RegionKey;
  allowedOrigins: readonly string[];
  routePrefix: string;
  verifyPortalToken: (token: string) => Promise<JWTPayload>;
  /** Whether the portal still vouches for a portal session and its access to an application. */
  portalVouches: (portalSessionId: string, applicationId: string) => Promise<boolean>;
}

const regionScope: FastifyPluginAsync<RegionScopeOptions> = async (scope, options) => {
  const { region, store, routePrefix } = options;
  const fetchImpl = options.fetch ?? fetch;
  const provisioningDelayMs = options.provisioningDelayMs ?? DEFAULT_PROVISIONING_DELAY_MS;
  const portalUrl = options.portalUrl.replace(/\/+$/, '');
  const publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, '');
  const secureCookie = publicBaseUrl.startsWith('https:');
  const cookieName = `region_session_${region.toLowerCase()}`;
  const cookiePath = routePrefix || '/';

  scope.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error instanceof RegionError)
      return reply.status(error.statusCode).send({ code: error.code, message: error.message });
    if (error instanceof ApiKeyConflict)
      return reply.status(409).send({ code: error.code, message: error.message });
    const status = error.statusCode ?? 500;
    if (status < 500)
      return reply.status(status).send({ code: error.code ?? 'BAD_REQUEST', message: error.message });
    request.log.error(error);
    return reply.status(500).send({ code: 'INTERNAL_ERROR', message: 'Internal error' });
  });

  // Control characters (NUL above all) are refused before any handler: none may reach the store.
  scope.addHook('preValidation', async (request) => {
    const field = findControlCharacterInRequest(request);
    if (field !== undefined)
      throw new RegionError(400, 'CONTROL_CHARACTER', `${field}: control characters are not allowed`);
  });

  // Browsers reach the region only from the portal; any other origin gets no CORS headers. The
  // regional session travels as a bearer header (a cookie set here is third-party to the portal's
  // pages, decision 034), so Authorization is the header the preflight must allow.
  await scope.register(cors, {
    origin: [...options.allowedOrigins],
    credentials: true,
    methods: ['GET', 'POST'],
    allowedHeaders: ['Authorization', 'Accept', 'Content-Type'],
    maxAge: 600,
  });

  // The console's sign-in is a form the portal's page posts into the console tab (see below).
  if (!scope.hasContentTypeParser('application/x-www-form-urlencoded')) {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
  }

  const requireAdmin = async (request: FastifyRequest) => {
    const token = bearer(request);
    if (!token || !sameSecret(token, options.adminToken))
      throw new RegionError(401, 'UNAUTHORIZED', 'A valid admin token is required');
  };

  const networkOr404 = (network: StoredNetwork | undefined): StoredNetwork => {
    if (!network) throw new RegionError(404, 'NETWORK_NOT_FOUND', 'No such network in this region');
    return network;
  };

  /**
   * The regional session of the request, while the portal still vouches for it: asked on every
   * use, so a sign-out, a deleted member or a narrowed scope ends regional access at once. One
   * the portal no longer vouches for is deleted; an unreachable portal refuses (503), never allows.
   */
  const regionalSession = async (request: FastifyRequest) =>
    sessionVouchedFor(bearer(request) ?? readCookie(request.headers.cookie, cookieName));

  /** The regional session of a token (a bearer header, the cookie, the console's form), if the portal vouches for it. */
  const sessionVouchedFor = async (token: string | undefined) => {
    const session = token ? await store.session(region, token) : undefined;
    if (!token || !session) return undefined;
    if (
      session.portalSessionId &&
      (await options.portalVouches(session.portalSessionId, session.applicationId))
    ) {
      return session;
    }
    await store.deleteSession(region, token);
    return undefined;
  };

  // ---- Admin API (server to server) ----

  scope.post(REGION_PATHS.networks, { preHandler: requireAdmin }, async (request, reply) => {
    const body = parse(CreateNetworkRequestSchema, request.body);
    const network = await store.createNetwork({
      region,
      ...body,
      provisioningDelayMs,
      consoleUrl: (networkId) => `${publicBaseUrl}${routePrefix}/console/${encodeURIComponent(networkId)}`,
    });
    return reply.status(201).send(toNetworkBody(network));
  });

  const networkParams = z.object({ networkId: z.string().min(1) });

  scope.get(NETWORK_ROUTE, { preHandler: requireAdmin }, async (request) => {
    const { networkId } = parse(networkParams, request.params);
    return toNetworkBody(networkOr404(await store.network(region, networkId)));
  });

  scope.put(NETWORK_ROUTE, { preHandler: requireAdmin }, async (request) => {
    const { networkId } = parse(networkParams, request.params);
    const { name } = parse(UpdateNetworkRequestSchema, request.body);
    return toNetworkBody(networkOr404(await store.updateNetwork(region, networkId, name)));
  });

  scope.post(`${NETWORK_ROUTE}/deactivate`, { preHandler: requireAdmin }, async (request) => {
    const { networkId } = parse(networkParams, request.params);
    return toNetworkBody(networkOr404(await store.deactivateNetwork(region, networkId)));
  });

  scope.post(`${NETWORK_ROUTE}/reactivate`, { preHandler: requireAdmin }, async (request) => {
    const { networkId } = parse(networkParams, request.params);
    return toNetworkBody(networkOr404(await store.reactivateNetwork(region, networkId)));
  });

  // The network's keys (decision 043): the portal lists, creates, expires (rotation's overlap) and revokes them.

  const apiKeyParams = networkParams.extend({ keyId: z.string().min(1) });

  const apiKeyOr404 = (key: StoredApiKey | undefined): StoredApiKey => {
    if (!key) throw new RegionError(404, 'API_KEY_NOT_FOUND', 'No such API key for this network');
    return key;
  };

  scope.get(API_KEYS_ROUTE, { preHandler: requireAdmin }, async (request) => {
    const { networkId } = parse(networkParams, request.params);
    networkOr404(await store.network(region, networkId));
    return { results: (await store.listApiKeys(networkId)).map(toApiKeyBody) };
  });

  scope.post(API_KEYS_ROUTE, { preHandler: requireAdmin }, async (request, reply) => {
    const { networkId } = parse(networkParams, request.params);
    const body = parse(RegionCreateApiKeyRequestSchema, request.body);
    networkOr404(await store.network(region, networkId));
    const { key, secret } = await store.createApiKey(networkId, body);
    return reply.status(201).send({ ...toApiKeyBody(key), secret });
  });

  // A key of another network (or region) answers like a missing one: the network's id scopes every change.
  scope.post(`${API_KEY_ROUTE}/expire`, { preHandler: requireAdmin }, async (request) => {
    const { networkId, keyId } = parse(apiKeyParams, request.params);
    const { expiresAt } = parse(RegionExpireApiKeyRequestSchema, request.body);
    networkOr404(await store.network(region, networkId));
    return toApiKeyBody(apiKeyOr404(await store.expireApiKey(networkId, keyId, new Date(expiresAt))));
  });

  scope.post(`${API_KEY_ROUTE}/revoke`, { preHandler: requireAdmin }, async (request) => {
    const { networkId, keyId } = parse(apiKeyParams, request.params);
    networkOr404(await store.network(region, networkId));
    return toApiKeyBody(apiKeyOr404(await store.revokeApiKey(networkId, keyId)));
  });

  scope.get(REGION_PATHS.usage, { preHandler: requireAdmin }, async (request) => {
    const { month } = parse(UsageQuerySchema, request.query);
    return store.usage(region, month);
  });

  // ---- Browser API ----

  scope.get(REGION_PATHS.ping, async () => ({ region, ok: true as const }));

  // The same sign-in as the portal's /sign-in-sso?org=…&init=true, which this hands the browser to:
  // the portal keeps the sign-in's state, so it starts there. A bad organisation is a 400 whose
  // message the caller shows.
  scope.get(REGION_PATHS.samlStart, async (request, reply) => {
    const query = z.object({ organization: ssoDomainField }).safeParse(request.query);
    if (!query.success)
      throw new RegionError(
        400,
        'VALIDATION_ERROR',
        messageText(query.error.issues[0]?.message ?? 'errors.validation'),
      );
    const start = new URL('/sign-in-sso', `${portalUrl}/`);
    start.search = new URLSearchParams({
      org: query.data.organization.toLowerCase(),
      init: 'true',
    }).toString();
    return reply.redirect(start.toString(), 302);
  });

  scope.post('/api/v2/sso/:portal', async (request, reply) => {
    const { portal } = parse(z.object({ portal: z.string() }), request.params);
    if (portal !== PORTAL_SSO_IDENTIFIER)
      throw new RegionError(404, 'UNKNOWN_PORTAL', `Unknown portal '${portal}'`);
    const { applicationId } = parse(
      z.object({ applicationId: z.string().trim().min(1).max(64) }),
      request.query,
    );
    const token = bearer(request);
    if (!token) throw new RegionError(401, 'UNAUTHORIZED', 'A portal access token is required');
    let claims: JWTPayload;
    try {
      claims = await options.verifyPortalToken(token);
    } catch {
      throw new RegionError(401, 'INVALID_TOKEN', 'The portal access token is invalid or expired');
    }
    const email = typeof claims.email === 'string' ? claims.email : '';
    if (!claims.sub || claims.exp === undefined || typeof claims.sid !== 'string' || !claims.sid)
      throw new RegionError(
        401,
        'INVALID_TOKEN',
        'The portal access token lacks a subject, session or expiry',
      );

    // The portal decides who may see an application (organisation, permissions, scopes); ask it.
    let check: Response;
    try {
      check = await fetchImpl(`${portalUrl}/api/v1/applications/${encodeURIComponent(applicationId)}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
      await check.body?.cancel();
    } catch (error) {
      request.log.warn({ err: error }, 'portal application check failed');
      throw new RegionError(
        502,
        'PORTAL_UNAVAILABLE',
        'The portal could not confirm access to this application',
      );
    }
    if (check.status === 401)
      throw new RegionError(401, 'INVALID_TOKEN', 'The portal refused the access token');
    if (check.status === 403) throw new RegionError(403, 'FORBIDDEN', 'You may not access this application');
    if (check.status === 404) throw new RegionError(404, 'APPLICATION_NOT_FOUND', 'No such application');
    if (!check.ok)
      throw new RegionError(
        502,
        'PORTAL_UNAVAILABLE',
        `The portal answered ${check.status} to the application check`,
      );

    const network = await store.networkByApplication(region, applicationId);
    if (!network)
      throw new RegionError(404, 'NETWORK_NOT_FOUND', 'This application has no network in this region');

    // The regional session lasts as long as the portal token that opened it; the portal opens a new one after.
    const expiresAt = new Date(claims.exp * 1000);
    const sessionToken = await store.createSession({
      region,
      portalSessionId: claims.sid,
      userId: claims.sub,
      email,
      applicationId,
      expiresAt,
    });
    const cookie = sessionCookie(cookieName, sessionToken, {
      path: cookiePath,
      expires: expiresAt,
      secure: secureCookie,
    });
    // The cookie serves callers on the region's own site; the portal's pages, usually on another
    // site, keep the token and send it as a bearer header.
    return reply.header('set-cookie', cookie).send({
      ok: true,
      networkId: network.networkId,
      sessionToken,
      expiresAt: expiresAt.toISOString(),
    });
  });

  scope.get(REGION_PATHS.apiKey, async (request) => {
    const session = await regionalSession(request);
    if (!session)
      throw new RegionError(401, 'UNAUTHORIZED', 'Open the regional session from the portal first');
    const network = networkOr404(await store.networkByApplication(region, session.applicationId));
    return store.setupApiKey(network.networkId);
  });

  scope.get(REGION_PATHS.firstActivity, async (request) => {
    const session = await regionalSession(request);
    if (!session)
      throw new RegionError(401, 'UNAUTHORIZED', 'Open the regional session from the portal first');
    const { networkId } = parse(FirstActivityQuerySchema, request.query);
    const network = await store.network(region, networkId);
    // Another application's network answers like a missing one, so ids cannot be probed.
    if (!network || network.applicationId !== session.applicationId) {
      throw new RegionError(404, 'NETWORK_NOT_FOUND', 'No such network for this session');
    }
    return { status: network.firstActivityAt !== null };
  });

  // ---- SDK API ----

  scope.post(REGION_PATHS.sdkSession, async (request, reply) => {
    const apiKey = request.headers['x-api-key'];
    if (typeof apiKey !== 'string' || !apiKey)
      throw new RegionError(401, 'INVALID_API_KEY', 'The x-api-key header is required');
    const { userId } = parse(SdkSessionRequestSchema, request.body);
    const found = await store.apiKeyBySecret(region, apiKey);
    if (!found) throw new RegionError(401, 'INVALID_API_KEY', 'The API key is not valid in this region');
    const { key, network } = found;
    const refusal = stoppedKeyRefusal(key);
    if (refusal) throw refusal;
    if (network.status !== 'active') {
      throw new RegionError(
        403,
        'NETWORK_NOT_ACTIVE',
        `The network is ${network.status}; SDK sessions need an active network`,
      );
    }
    await store.recordSdkSession({
      networkId: network.networkId,
      keyId: key.keyId,
      userId,
      month: currentMonth(),
    });
    return reply.status(201).send({ sessionId: crypto.randomUUID(), userId, networkId: network.networkId });
  });

  // ---- Console ----

  // The console opens in a tab of its own, a top-level page of the region's site, where a cookie
  // the portal's page had the region set through fetch is third-party and may never arrive. So the
  // portal's page posts the regional session into the tab: the answer sets the cookie first-party
  // and sends the tab on to the console. Only the portal's pages may post it (their Origin), so a
  // foreign page cannot slip someone else's session into a member's browser.
  scope.post('/console/:networkId', async (request, reply) => {
    const { networkId } = parse(networkParams, request.params);
    const origin = request.headers.origin;
    if (!origin || !options.allowedOrigins.includes(origin))
      throw new RegionError(403, 'FORBIDDEN_ORIGIN', 'The console opens from the portal only');
    const { session: token } = parse(z.object({ session: z.string().min(1).max(200) }), request.body);
    const session = await sessionVouchedFor(token);
    const network = await store.network(region, networkId);
    if (!session || !network || network.applicationId !== session.applicationId) {
      return reply.status(401).type('text/html; charset=utf-8').send(consoleSignInPage(REGIONS[region].name));
    }
    const cookie = sessionCookie(cookieName, token, {
      path: cookiePath,
      expires: session.expiresAt,
      secure: secureCookie,
    });
    return reply.header('set-cookie', cookie).redirect(network.consoleUrl, 303);
  });

  scope.get('/console/:networkId', async (request, reply) => {
    const { networkId } = parse(networkParams, request.params);
    const session = await regionalSession(request);
    const network = await store.network(region, networkId);
    reply.type('text/html; charset=utf-8');
    if (!session || !network || network.applicationId !== session.applicationId) {
      return reply.status(401).send(consoleSignInPage(REGIONS[region].name));
    }
    return consolePage(network, REGIONS[region]);
  });
};

/** A Fastify plugin hosting the given regions, each as an encapsulated scope under its prefix. */
export const regionsPlugin: FastifyPluginAsync<RegionsOptions> = async (app, options) => {
  const portalUrl = options.portalUrl.replace(/\/+$/, '');
  const allowedOrigins = (options.portalOrigins?.length ? options.portalOrigins : [portalUrl]).map(
    (origin) => new URL(origin).origin,
  );
  const fetchImpl = options.fetch;
  const jwks = createRemoteJWKSet(
    new URL(`${portalUrl}/api/auth/jwks`),
    fetchImpl ? { [customFetch]: fetchImpl } : {},
  );
  const verifyPortalToken = async (token: string) =>
    (await jwtVerify(token, jwks, { issuer: portalUrl, audience: portalUrl })).payload;
  const portalVouches = async (portalSessionId: string, applicationId: string) => {
    let response: Response;
    try {
      response = await (fetchImpl ?? fetch)(`${portalUrl}${REGIONAL_SESSION_CHECK_PATH}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.adminToken}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({ sessionId: portalSessionId, applicationId }),
        signal: AbortSignal.timeout(10_000),
      });
      await response.body?.cancel();
    } catch {
      throw new RegionError(503, 'PORTAL_UNAVAILABLE', 'The portal could not confirm this session');
    }
    if (response.ok) return true;
    if (response.status === 403 || response.status === 404) return false;
    throw new RegionError(
      503,
      'PORTAL_UNAVAILABLE',
      `The portal answered ${response.status} to the session check`,
    );
  };
  for (const region of options.regions) {
    const routePrefix = (options.basePath ?? defaultRegionPrefix)(region);
    await app.register(regionScope, {
      ...options,
      region,
      routePrefix,
      allowedOrigins,
      verifyPortalToken,
      portalVouches,
      prefix: routePrefix,
    });
  }
};

/** Mounts the regions into an existing Fastify app (for instance the portal's own). */
export async function registerRegions(app: FastifyInstance, options: RegionsOptions): Promise<void> {
  await app.register(regionsPlugin, options);
}

/** A standalone Fastify app hosting the regions (the CLI's server). */
export async function createRegionApp(
  options: RegionsOptions & { logger?: boolean },
): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false });
  await registerRegions(app, options);
  return app;
}
