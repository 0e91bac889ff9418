import { GoogleStandIn } from '../../apps/api/test/google-stand-in.ts';
import { test as base } from './fixtures.ts';
import { withOwnPortal } from './own-portal.ts';

export type { GoogleIdentity } from '../../apps/api/test/google-stand-in.ts';

interface GooglePortal {
  baseURL: string;
  google: GoogleStandIn;
}

/**
 * The shared fixtures on a portal of this worker's own with Google sign-in configured against a
 * local OpenID provider standing in for Google. The provider starts first: the portal reads its
 * discovery document once, when it starts. The shared portal keeps Google unconfigured.
 */
export const googleTest = base.extend<{ google: GoogleStandIn }, { googlePortal: GooglePortal }>({
  googlePortal: [
    async ({}, use) => {
      const google = await GoogleStandIn.start();
      try {
        await withOwnPortal('google', google.portalEnv, (portal) => use({ baseURL: portal.baseURL, google }));
      } finally {
        await google.stop();
      }
    },
    { scope: 'worker' },
  ],
  google: async ({ googlePortal }, use) => use(googlePortal.google),
  baseURL: async ({ googlePortal }, use) => use(googlePortal.baseURL),
});
