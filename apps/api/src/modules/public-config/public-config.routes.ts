import { PublicConfigSchema, type PublicConfig } from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** What the sign-in pages need to know before anyone signs in; public. */
export async function publicConfigRoutes(app: FastifyInstance) {
  const { config } = app;
  const body: PublicConfig = {
    productName: config.productName,
    googleSignIn: Boolean(config.google),
    // Organisation SSO arrives with its own work; the page exists but no provider is configured yet.
    ssoSignIn: false,
    dashboardUrl: config.dashboardUrl,
    helpLinks: config.helpLinks,
  };
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/', { schema: { response: { 200: PublicConfigSchema } } }, async () => body);
}
