import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import type { Auth } from './auth.ts';
import { RateLimiter } from './rate-limiter.ts';

/** better-auth endpoints that guess or spend something: limited per IP and per account. */
const LIMITED_PATHS = new Set([
  '/api/auth/sign-in/email',
  '/api/auth/sign-up/email',
  '/api/auth/email-otp/send-verification-otp',
  '/api/auth/email-otp/verify-email',
  '/api/auth/email-otp/request-password-reset',
  '/api/auth/forget-password/email-otp',
  '/api/auth/email-otp/reset-password',
]);

/** The parsed body again as JSON; one nested too deeply to serialise is refused, not a 500. */
function serializeBody(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    if (error instanceof RangeError) throw new AppError('VALIDATION_ERROR', { message: 'The request body is nested too deeply.' });
    throw error;
  }
}

/** True when better-auth answered with an error body of its own (`{code, message}`). */
function isErrorBody(payload: Buffer | null): boolean {
  if (!payload) return false;
  try {
    return typeof (JSON.parse(payload.toString('utf8')) as { code?: unknown } | null)?.code === 'string';
  } catch {
    return false;
  }
}

function emailOf(body: unknown): string | undefined {
  const email = (body as { email?: unknown } | null)?.email;
  return typeof email === 'string' && email.trim() ? email.trim().toLowerCase() : undefined;
}

/** Mounts better-auth's fetch handler under /api/auth, behind the portal's rate limiter. */
export function authRoutes(deps: { auth: Auth; config: Config }) {
  const { auth, config } = deps;
  const limiter = new RateLimiter(config.rateLimit.windowSeconds * 1000);

  const enforceRateLimit = (request: FastifyRequest, reply: FastifyReply, pathname: string) => {
    if (request.method !== 'POST' || !LIMITED_PATHS.has(pathname)) return;
    const email = emailOf(request.body);
    const checks = [limiter.hit(`ip:${pathname}:${request.ip}`, config.rateLimit.maxPerIp)];
    if (email) checks.push(limiter.hit(`account:${pathname}:${email}`, config.rateLimit.maxPerAccount));
    const refused = checks.find((c) => !c.allowed);
    if (refused && !refused.allowed) {
      reply.header('retry-after', String(refused.retryAfterSeconds));
      throw new AppError('RATE_LIMITED', {
        message: `Too many attempts. Please wait ${refused.retryAfterSeconds} seconds and try again.`,
      });
    }
  };

  return async (app: FastifyInstance) => {
    app.route({
      method: ['GET', 'POST'],
      url: '/*',
      async handler(request, reply) {
        const url = new URL(request.url, config.publicUrl);
        enforceRateLimit(request, reply, url.pathname);
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) {
          if (value === undefined) continue;
          headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        const response = await auth.handler(
          new Request(url, {
            method: request.method,
            headers,
            body: request.method === 'POST' && request.body !== undefined ? serializeBody(request.body) : undefined,
          }),
        );
        const payload = response.body ? Buffer.from(await response.arrayBuffer()) : null;
        // better-auth answers a path it does not know with an empty 404; the portal's 404 is JSON.
        if (response.status === 404 && !isErrorBody(payload)) throw new AppError('NOT_FOUND');
        reply.status(response.status);
        response.headers.forEach((value, name) => {
          if (name !== 'set-cookie') reply.header(name, value);
        });
        const cookies = response.headers.getSetCookie();
        if (cookies.length > 0) reply.header('set-cookie', cookies);
        return reply.send(payload);
      },
    });
  };
}
