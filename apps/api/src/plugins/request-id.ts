import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';

/** The header a trusted proxy names its request id in, and the portal answers it in. */
export const REQUEST_ID_HEADER = 'x-request-id';
/** The log field of the request id, as Fastify names it on a request's own log lines. */
const REQUEST_ID_LOG_FIELD = 'reqId';
/** A proxy's id is taken only when it could not break a log line or a header: short, printable, no spaces. */
const FORWARDED_REQUEST_ID = /^[\w.:@/+=-]{1,128}$/;

/** The ranges proxy-addr (Fastify's trustProxy) reads these names as. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** A netmask such as 255.255.0.0 as its prefix length. */
function prefixOfNetmask(netmask: string): number {
  return netmask
    .split('.')
    .map((octet) => Number(octet).toString(2).replace(/0/g, '').length)
    .reduce((sum, bits) => sum + bits, 0);
}

/**
 * Whether a peer is a proxy TRUST_PROXY trusts, read as Fastify reads it: true (every peer), false
 * (none) or addresses, CIDR ranges and proxy-addr's names (loopback, linklocal, uniquelocal) separated
 * by commas. Fastify only answers this for the client address, after the request id is chosen.
 */
export function trustedPeer(trustProxy: boolean | string): (address: string | undefined) => boolean {
  if (typeof trustProxy === 'boolean') return () => trustProxy;
  const trusted = new BlockList();
  const entries = trustProxy
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .flatMap((entry) => NAMED_RANGES[entry] ?? [entry]);
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    if (family === 0) throw new Error(`TRUST_PROXY: ${entry} is not an address, a range or a known name`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) trusted.addAddress(address, type);
    else trusted.addSubnet(address, prefix.includes('.') ? prefixOfNetmask(prefix) : Number(prefix), type);
  }
  return (address) => {
    if (!address) return false;
    const family = isIP(address);
    return family !== 0 && trusted.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * Fastify's genReqId: the id a trusted proxy sends in X-Request-Id, so one id follows the request
 * through the proxy's log and the portal's; otherwise a new UUID. A client that reaches the portal
 * directly cannot choose the id its request is logged under.
 */
export function requestIdGenerator(trustProxy: boolean | string): (request: IncomingMessage) => string {
  const isTrusted = trustedPeer(trustProxy);
  return (request) => {
    const forwarded = request.headers[REQUEST_ID_HEADER];
    if (
      typeof forwarded === 'string' &&
      FORWARDED_REQUEST_ID.test(forwarded) &&
      isTrusted(request.socket.remoteAddress)
    ) {
      return forwarded;
    }
    return crypto.randomUUID();
  };
}

/** The id of the request whose work is running, for log lines written through the app's own logger. */
const currentRequestId = new AsyncLocalStorage<string>();
/** The request loggers Fastify made: their lines carry the id already. */
const requestLoggers = new WeakSet<object>();

/**
 * Logger options that put the request id on every line written while a request is handled, also by
 * code that logs through the app's logger (services, better-auth): Fastify binds it to request.log only.
 */
export const requestIdLogging = {
  childLoggerFactory(logger, bindings, options) {
    const child = logger.child(bindings, options);
    requestLoggers.add(child);
    return child;
  },
  mixin(_mergeObject: object, _level: number, logger: FastifyBaseLogger): object {
    const requestId = currentRequestId.getStore();
    // A new object each time: pino merges the line's own fields into it.
    return requestId === undefined || requestLoggers.has(logger) ? {} : { [REQUEST_ID_LOG_FIELD]: requestId };
  },
} satisfies Pick<FastifyServerOptions, 'childLoggerFactory'> & { mixin: unknown };

/** A JSON error body of the portal's shape (`code` and `message`), or undefined for anything else. */
function errorBodyOf(payload: unknown): Record<string, unknown> | undefined {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return undefined;
  try {
    const body: unknown = JSON.parse(payload.toString());
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
    const { code, message } = body as Record<string, unknown>;
    return typeof code === 'string' && typeof message === 'string'
      ? (body as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every answer names its request id in X-Request-Id, and a 5xx error body carries it as `requestId`,
 * so a user can quote it and an operator find the request's log lines. Registered first: its
 * onRequest hook runs before every other, and its onSend hook before compression.
 */
export const requestIdPlugin = fp(
  async (app) => {
    app.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      currentRequestId.run(request.id, done);
    });
    // The handler runs on from the body stream's events, outside what onRequest entered: entered again.
    app.addHook('preValidation', (request, _reply, done) => currentRequestId.run(request.id, done));
    app.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode < 500) return payload;
      const body = errorBodyOf(payload);
      if (!body || body.requestId !== undefined) return payload;
      return JSON.stringify({ ...body, requestId: request.id });
    });
  },
  { name: 'request-id' },
);
