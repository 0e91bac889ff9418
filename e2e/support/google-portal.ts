import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GoogleStandIn } from '../../apps/api/test/google-stand-in.ts';
import { SMTP_URL_ENV } from '../harness/harness-state.ts';
import { freePort, startPortal, stopPortal, type PortalProcess } from '../harness/portal-server.ts';
import { test as base } from './fixtures.ts';

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
      const smtpUrl = process.env[SMTP_URL_ENV];
      if (!smtpUrl)
        throw new Error(`${SMTP_URL_ENV} is not set: run the tests through e2e/playwright.config.ts`);
      const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-google-'));
      const log = path.join(workDir, 'server.log');
      const google = await GoogleStandIn.start();
      let portal: PortalProcess | undefined;
      try {
        portal = await startPortal({
          port: await freePort(),
          dataDir: path.join(workDir, 'data'),
          smtpUrl,
          log,
          env: google.portalEnv,
        });
        await use({ baseURL: portal.baseURL, google });
      } finally {
        if (portal) await stopPortal(portal.server);
        await google.stop();
        if (process.env.E2E_KEEP_DATA === '1') console.log(`e2e: Google portal's data and log in ${workDir}`);
        else fs.rmSync(workDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker' },
  ],
  google: async ({ googlePortal }, use) => use(googlePortal.google),
  baseURL: async ({ googlePortal }, use) => use(googlePortal.baseURL),
});
