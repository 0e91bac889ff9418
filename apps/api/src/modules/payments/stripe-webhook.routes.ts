import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { GatewayUnavailableError } from '../../payments/payment-gateway.ts';
import { SETTLING_EVENTS, StripeGateway } from '../../payments/stripe-gateway.ts';

/** Where Stripe posts its events: register it in Stripe's dashboard as `$PUBLIC_URL` + this. */
export const STRIPE_WEBHOOK_PREFIX = '/api/v1/payments/stripe';

/** The part of a Stripe event the webhook reads; the rest of the object is let through unread. */
const StripeEventSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  data: z.object({ object: z.looseObject({ id: z.string().optional() }) }),
});

const ReceivedSchema = z.object({ received: z.literal(true) });

/** The exact bytes each request's body came as (as text): the signature is over those, not over re-serialised JSON. */
const rawBodies = new WeakMap<FastifyRequest, string>();

/**
 * POST /api/v1/payments/stripe/webhook, registered only with PAYMENT_PROVIDER=stripe. Stripe posts
 * its events here signed with the webhook secret; an event without a valid `Stripe-Signature` is
 * refused with 400 before anything else. `payment_intent.succeeded` and
 * `payment_intent.payment_failed` settle the payment attempt the PaymentIntent was made for (named
 * in its metadata) with the PaymentIntent as Stripe has it now, read back from Stripe; every other
 * event, and a PaymentIntent the portal did not make or has settled already, is acknowledged and
 * left alone. When Stripe cannot be asked, the answer is 503 and Stripe sends the event again later.
 */
export async function stripeWebhookRoutes(app: FastifyInstance) {
  const gateway = app.paymentGateway;
  if (!(gateway instanceof StripeGateway)) throw new Error('the Stripe webhook needs the Stripe gateway');
  const service = app.payments;

  // In this plugin only: JSON bodies are kept as the text that came, then parsed.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    rawBodies.set(request, text);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AppError('BAD_REQUEST', { message: 'The body is not JSON.' }), undefined);
    }
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/webhook',
    {
      schema: { body: StripeEventSchema, response: { 200: ReceivedSchema } },
      // The signature is checked before the body's shape: an unsigned request learns nothing more.
      preValidation: async (request) => {
        const signature = request.headers['stripe-signature'];
        try {
          await gateway.verifyWebhook(
            rawBodies.get(request) ?? '',
            Array.isArray(signature) ? undefined : signature,
          );
        } catch {
          throw new AppError('WEBHOOK_SIGNATURE_INVALID');
        }
      },
    },
    async (request) => {
      const event = request.body;
      const paymentIntentId = event.data.object.id;
      if (!(SETTLING_EVENTS as readonly string[]).includes(event.type) || !paymentIntentId)
        return { received: true as const };
      let reported: Awaited<ReturnType<StripeGateway['readPaymentIntent']>>;
      try {
        reported = await gateway.readPaymentIntent(paymentIntentId);
      } catch (error) {
        if (error instanceof GatewayUnavailableError) throw new AppError('PAYMENT_GATEWAY_UNAVAILABLE');
        throw error;
      }
      await service.settleReportedPaymentIntent(paymentIntentId, reported, request.log);
      return { received: true as const };
    },
  );
}
