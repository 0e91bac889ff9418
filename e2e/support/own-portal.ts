import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTP_URL_ENV } from '../harness/harness-state.ts';
import { freePort, startPortal, stopPortal, type PortalProcess } from '../harness/portal-server.ts';
import type { OperatedPortal } from './operator.ts';

/**
 * A portal of a spec's own, with settings the shared portal must not have (an identity provider,
 * which must be running before the portal starts when the portal reads it at start), on the shared
 * SMTP sink. Stopped after `use`, its data and log removed unless E2E_KEEP_DATA=1.
 */
export async function withOwnPortal(
  label: string,
  env: NodeJS.ProcessEnv,
  use: (portal: OperatedPortal) => Promise<void>,
) {
  const smtpUrl = process.env[SMTP_URL_ENV];
  if (!smtpUrl) throw new Error(`${SMTP_URL_ENV} is not set: run the tests through e2e/playwright.config.ts`);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-e2e-${label}-`));
  const dataDir = path.join(workDir, 'data');
  let portal: PortalProcess | undefined;
  try {
    portal = await startPortal({
      port: await freePort(),
      dataDir,
      smtpUrl,
      log: path.join(workDir, 'server.log'),
      env,
    });
    await use({ baseURL: portal.baseURL, dataDir });
  } finally {
    if (portal) await stopPortal(portal.server);
    if (process.env.E2E_KEEP_DATA === '1')
      console.log(`e2e: the ${label} portal's data and log are in ${workDir}`);
    else fs.rmSync(workDir, { recursive: true, force: true });
  }
}
