import fp from 'fastify-plugin';
import { portalFetch } from '../http/portal-fetch.ts';
import { cardSandboxKeys } from '../payments/embedded-card-sandbox.ts';
import type { PaymentGateway } from '../payments/payment-gateway.ts';
import { SandboxGateway } from '../payments/sandbox-gateway.ts';
import { StripeGateway } from '../payments/stripe-gateway.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The card gateway PAYMENT_PROVIDER names: the sandbox (hosted by this server unless CARD_SANDBOX_URL is set) or Stripe. */
    paymentGateway: PaymentGateway;
  }
}

/** The payment gateway of the configuration, reaching a sandbox this server hosts in process. */
export const paymentGatewayPlugin = fp(
  async (app) => {
    const { config } = app;
    const { payments } = config;
    if (payments.provider === 'stripe') {
      app.decorate('paymentGateway', new StripeGateway(payments.stripe));
      return;
    }
    const sandbox = payments.cardSandbox;
    app.decorate(
      'paymentGateway',
      new SandboxGateway({
        baseUrl: sandbox.baseUrl,
        tokenizeUrl: sandbox.tokenizeUrl,
        ...cardSandboxKeys(config, sandbox),
        fetch: portalFetch(app, config.publicUrl),
      }),
    );
  },
  { name: 'payment-gateway', dependencies: ['config'] },
);
