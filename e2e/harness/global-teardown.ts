import fs from 'node:fs';
import path from 'node:path';
import { E2E_DIR, takeHarness } from './harness-state.ts';
import { stopPortal } from './portal-server.ts';

/** Stops the portal and the SMTP sink; keeps the server's output under e2e/test-results. */
export default async function globalTeardown() {
  const harness = takeHarness();
  if (!harness) return;
  const { server, sink, workDir, serverLog } = harness;

  if (!(await stopPortal(server))) {
    console.error(
      `e2e: the portal server had already exited (code ${String(server.exitCode)}) before the tests ended`,
    );
  }
  await sink.close();

  const resultsDir = path.join(E2E_DIR, 'test-results');
  fs.mkdirSync(resultsDir, { recursive: true });
  if (fs.existsSync(serverLog)) fs.copyFileSync(serverLog, path.join(resultsDir, 'server.log'));
  if (process.env.E2E_KEEP_DATA === '1') {
    console.log(`e2e: kept ${workDir}`);
  } else {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
