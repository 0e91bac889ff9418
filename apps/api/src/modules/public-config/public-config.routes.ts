import { PublicConfigSchema, REGION_KEYS, type PublicConfig } from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** What the sign-in pages need to know before anyone signs in; public. */
export async function publicConfigRoutes(app: FastifyInstance) {
  const { config } = app;
  const fixed: Omit<PublicConfig, 'ssoSignIn'> = {
    productName: config.productName,
    googleSignIn: Boolean(config.google),
    dashboardUrl: config.dashboardUrl,
    helpLinks: config.helpLinks,
    // A region the portal hosts is named by path, so pages reach it on whichever origin they came from.
    regionBaseUrls: Object.fromEntries(
      REGION_KEYS.map((key) => [
        key,
        config.embeddedRegions.includes(key) ? `/regions/${key.toLowerCase()}` : config.regionUrls[key],
      ]),
    ) as PublicConfig['regionBaseUrls'],
  };
  app.withTypeProvider<ZodTypeProvider>().get(
    '/',
    { schema: { response: { 200: PublicConfigSchema } } },
    async (): Promise<PublicConfig> => ({ ...fixed, ssoSignIn: await app.sso.signInOffered() }),
  );
}
