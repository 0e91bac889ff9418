import { findControlCharacterInRequest } from '@portal/contracts';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';

const STATE_CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Where browsers send the portal's session cookie; the regions' own APIs check their own callers. */
const PORTAL_API_PREFIXES = ['/api/', '/dev/'];

function originOf(value: string): string | undefined {
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}

/**
 * A SAML identity provider's answer is a form the browser posts from the IdP's page: it is signed by
 * the IdP and must answer a sign-in request this portal made (InResponseTo), which is what a forged
 * post cannot do, so it is the one state-changing call from another origin. Only the service's own
 * path is exempt, one provider id (sso.ts) and nothing after it: the identity routes resolve dot
 * segments (`acs/%2e%2e/…`), which must not carry another endpoint past these checks.
 */
const SAML_ASSERTION_CONSUMER_SERVICE = /^\/api\/auth\/sso\/saml2\/sp\/acs\/sso-[A-Za-z0-9-]{1,100}(?:\?|$)/;

function isPortalApi(url: string): boolean {
  return (
    PORTAL_API_PREFIXES.some((prefix) => url.startsWith(prefix)) && !SAML_ASSERTION_CONSUMER_SERVICE.test(url)
  );
}

/**
 * A state-changing call must come from the portal's own pages: its Origin (or, without one, its
 * Referer) must be the portal's. A call naming neither is refused when it carries a cookie, since
 * every browser names the origin of a cross-site POST; clients without a cookie (the bearer token,
 * server-to-server calls) have nothing a forged request could ride on. SameSite=Lax cookies already
 * stop today's browsers; this holds for older ones and for a cookie set without the attribute.
 */
function assertSameOrigin(request: FastifyRequest, portalOrigin: string) {
  const { origin, referer, cookie } = request.headers;
  const claimed = origin ?? referer;
  if (claimed === undefined) {
    if (cookie) throw new AppError('CROSS_ORIGIN_REQUEST');
    return;
  }
  if (originOf(claimed) !== portalOrigin) throw new AppError('CROSS_ORIGIN_REQUEST');
}

/** Bodies are JSON only: a text/plain or form body is what a cross-site form can send without a preflight. */
function assertJsonBody(request: FastifyRequest) {
  const contentType = request.headers['content-type'];
  if (contentType === undefined) return;
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') throw new AppError('UNSUPPORTED_MEDIA_TYPE');
}

/** Checks every request makes before its route: same origin and JSON for changes, no control characters. */
export const requestGuardsPlugin = fp(
  async (app) => {
    const portalOrigin = new URL(app.config.publicUrl).origin;
    // Fastify would otherwise parse text/plain bodies into strings; the portal's API takes JSON only.
    app.removeContentTypeParser('text/plain');
    app.addHook('onRequest', async (request) => {
      const path = request.url;
      if (!STATE_CHANGING_METHODS.has(request.method) || !isPortalApi(path)) return;
      assertSameOrigin(request, portalOrigin);
      assertJsonBody(request);
    });
    // Control characters are refused before any handler, naming the field, so none reaches SQL or a region.
    app.addHook('preValidation', async (request) => {
      const field = findControlCharacterInRequest(request);
      if (field !== undefined) throw new AppError('CONTROL_CHARACTER', { field });
    });
  },
  { name: 'request-guards', dependencies: ['config'] },
);
