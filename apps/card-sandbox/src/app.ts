import crypto from 'node:crypto';
import { findControlCharacterInRequest } from '@portal/contracts';
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { z } from 'zod';
import type { CardInput } from './cards.ts';
import { CardFieldsError, CardSandbox, SandboxError } from './gateway.ts';
import type { CardSandboxStore } from './store.ts';

export interface CardSandboxOptions {
  /** Where the sandbox's routes live (`/card-sandbox` in the portal); empty or omitted: the root. */
  prefix?: string;
  store: CardSandboxStore;
  /** The browser's key (`pk_sandbox_…`): it may only tokenise cards. */
  publishableKey: string;
  /** The merchant server's key (`sk_sandbox_…`): customers, saved cards and charges. */
  secretKey: string;
}

export const PUBLISHABLE_KEY_PREFIX = 'pk_sandbox_';
export const SECRET_KEY_PREFIX = 'sk_sandbox_';

/** The largest charge taken: a billion dollars, in cents. */
const MAX_AMOUNT_CENTS = 100_000_000_000;

/** Whether a presented key is the expected one, compared in constant time (of equal-length digests). */
function sameKey(presented: string, expected: string): boolean {
  const digest = (value: string) => crypto.createHash('sha256').update(value).digest();
  return crypto.timingSafeEqual(digest(presented), digest(expected));
}

function bearer(request: FastifyRequest): string | undefined {
  return request.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = issue?.path.join('.') ?? '';
  throw new SandboxError(400, 'invalid_request', `${param || 'body'}: ${issue?.message ?? 'invalid'}`, {
    param,
  });
}

/** A token's, customer's or saved card's id as given; an unknown one is refused by lookup. */
const Id = z.string().trim().min(1).max(255);

const CustomerBodySchema = z
  .object({ metadata: z.record(z.string().max(40), z.string().max(500)).optional() })
  .optional();

const PaymentMethodBodySchema = z.object({ token: Id, customer: Id });

const ChargeBodySchema = z.object({
  amountCents: z.number().int().positive().max(MAX_AMOUNT_CENTS),
  currency: z.literal('usd'),
  description: z.string().max(1000).default(''),
  source: z.union([z.strictObject({ token: Id }), z.strictObject({ paymentMethod: Id, customer: Id })]),
});

const IdempotencyKeySchema = z
  .string()
  .trim()
  .regex(/^[\x20-\x7e]{1,255}$/, 'must be 1 to 255 printable ASCII characters');

const ChargesQuerySchema = z.object({
  idempotencyKey: IdempotencyKeySchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(100),
});

const IdParamsSchema = z.object({ id: Id });

/** The tokeniser is called by browsers on any origin, as a card network's is: its key is public. */
const TOKEN_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-max-age': '600',
};

function sendStored(reply: FastifyReply, answer: { status: number; body: string }) {
  return reply.status(answer.status).type('application/json; charset=utf-8').send(answer.body);
}

/**
 * The sandbox payment gateway as an encapsulated Fastify plugin: a tokeniser for the browser
 * (publishable key) and the merchant API for the server (secret key). Register it with a `prefix`.
 */
export const cardSandboxPlugin: FastifyPluginAsync<CardSandboxOptions> = async (scope, options) => {
  if (
    !options.publishableKey.startsWith(PUBLISHABLE_KEY_PREFIX) ||
    !options.secretKey.startsWith(SECRET_KEY_PREFIX)
  )
    throw new Error(
      `The card sandbox's keys must start with ${PUBLISHABLE_KEY_PREFIX} and ${SECRET_KEY_PREFIX}.`,
    );
  const sandbox = new CardSandbox(options.store);

  scope.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error instanceof CardFieldsError) return reply.status(400).send({ errors: error.errors });
    if (error instanceof SandboxError) return reply.status(error.statusCode).send(error.toBody());
    const status = error.statusCode ?? 500;
    if (status < 500)
      return reply.status(status).send({ error: { code: 'invalid_request', message: error.message } });
    request.log.error({ err: error }, 'card sandbox request failed');
    return reply
      .status(500)
      .send({ error: { code: 'api_error', message: 'The card sandbox failed to answer.' } });
  });

  // Control characters (NUL above all) are refused before any handler: none may reach the store.
  scope.addHook('preValidation', async (request) => {
    const field = findControlCharacterInRequest(request);
    if (field !== undefined)
      throw new SandboxError(400, 'invalid_request', `${field}: control characters are not allowed`, {
        param: field,
      });
  });

  const requireKey = (expected: string, which: string) => async (request: FastifyRequest) => {
    const key = bearer(request);
    if (!key || !sameKey(key, expected))
      throw new SandboxError(
        401,
        'unauthorized',
        `A valid ${which} key is required: Authorization: Bearer <key>.`,
      );
  };
  const publishable = requireKey(options.publishableKey, 'publishable');
  const secret = requireKey(options.secretKey, 'secret');

  // ---- Browser: card data in, a token out ----

  scope.options('/v1/tokens', async (_request, reply) =>
    reply.headers(TOKEN_CORS_HEADERS).status(204).send(),
  );
  scope.post(
    '/v1/tokens',
    {
      onRequest: async (_request, reply) => {
        reply.header('access-control-allow-origin', '*');
      },
      preHandler: publishable,
    },
    async (request) => {
      const body = request.body !== null && typeof request.body === 'object' ? request.body : {};
      return sandbox.createToken(body as CardInput);
    },
  );

  // ---- Merchant server ----

  scope.get('/v1/tokens/:id', { preHandler: secret }, async (request) => {
    const params = parse(IdParamsSchema, request.params);
    return sandbox.retrieveToken(params.id);
  });

  scope.post('/v1/customers', { preHandler: secret }, async (request) => {
    const body = parse(CustomerBodySchema, request.body);
    return sandbox.createCustomer(body?.metadata ?? {});
  });

  scope.post('/v1/payment-methods', { preHandler: secret }, async (request) => {
    const { token, customer } = parse(PaymentMethodBodySchema, request.body);
    return sandbox.createPaymentMethod(token, customer);
  });

  scope.delete('/v1/payment-methods/:id', { preHandler: secret }, async (request) => {
    const params = parse(IdParamsSchema, request.params);
    return sandbox.removePaymentMethod(params.id);
  });

  scope.post('/v1/charges', { preHandler: secret }, async (request, reply) => {
    const key = IdempotencyKeySchema.safeParse(request.headers['idempotency-key']);
    if (!key.success)
      throw new SandboxError(
        400,
        'idempotency_key_required',
        'A charge needs one Idempotency-Key header of 1 to 255 printable ASCII characters.',
      );
    const idempotencyKey = key.data;
    const body = parse(ChargeBodySchema, request.body);
    return sendStored(reply, await sandbox.charge({ idempotencyKey, ...body }));
  });

  scope.get('/v1/charges', { preHandler: secret }, async (request) => {
    return sandbox.charges(parse(ChargesQuerySchema, request.query));
  });
};

/** Mounts the sandbox into an existing Fastify app (for instance the portal's own) under `prefix`. */
export async function registerCardSandbox(app: FastifyInstance, options: CardSandboxOptions): Promise<void> {
  await app.register(cardSandboxPlugin, { ...options, prefix: options.prefix ?? '' });
}

/** A standalone Fastify app hosting the sandbox. */
export async function createCardSandboxApp(
  options: CardSandboxOptions & { logger?: boolean },
): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false });
  await registerCardSandbox(app, options);
  return app;
}
