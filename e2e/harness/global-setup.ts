import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { MAIL_DIR_ENV } from '../support/mail-store.ts';
import { BASE_URL_ENV, DATA_DIR_ENV, SMTP_URL_ENV, setHarness } from './harness-state.ts';
import { freePort, requireBuild, startPortal } from './portal-server.ts';
import { startSmtpSink } from './smtp-sink.ts';

/**
 * Starts a real SMTP sink and the built portal (`node apps/api/dist/server.js`) on free loopback
 * ports with a fresh data directory; the tests read the base URL, the data dir and the inbox from
 * the environment.
 */
export default async function globalSetup(_config: FullConfig) {
  requireBuild();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const inboxDir = path.join(workDir, 'inbox');
  const dataDir = path.join(workDir, 'data');
  const serverLog = path.join(workDir, 'server.log');

  const sink = await startSmtpSink(inboxDir);
  const smtpUrl = `smtp://127.0.0.1:${sink.port}`;
  let baseURL: string;
  try {
    const portal = await startPortal({ port: await freePort(), dataDir, smtpUrl, log: serverLog });
    setHarness({ server: portal.server, sink, workDir, serverLog });
    baseURL = portal.baseURL;
  } catch (error) {
    await sink.close();
    throw error;
  }

  process.env[BASE_URL_ENV] = baseURL;
  process.env[DATA_DIR_ENV] = dataDir;
  process.env[SMTP_URL_ENV] = smtpUrl;
  process.env[MAIL_DIR_ENV] = inboxDir;
  console.log(`e2e: portal at ${baseURL}, SMTP sink on 127.0.0.1:${sink.port}, work dir ${workDir}`);
}
