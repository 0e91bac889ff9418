import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { MAIL_DIR_ENV } from '../support/mail-store.ts';
import { BASE_URL_ENV, REPO_ROOT, setHarness, type Harness } from './harness-state.ts';
import { startSmtpSink } from './smtp-sink.ts';

const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/api/dist/server.js');
const WEB_INDEX = path.join(REPO_ROOT, 'apps/web/dist/index.html');
const STARTUP_TIMEOUT_MS = 60_000;

// Settings of the developer's shell that would point the portal under test elsewhere.
const INHERITED_PORTAL_SETTINGS = ['DATABASE_URL', 'AUTH_SECRET', 'GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'WEB_DIST_DIR', 'MAIL_FROM'];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function requireBuild() {
  const missing = [SERVER_ENTRY, WEB_INDEX].filter((file) => !fs.existsSync(file));
  if (missing.length > 0) {
    throw new Error(
      `The e2e tests drive the built portal, but ${missing.map((f) => path.relative(REPO_ROOT, f)).join(' and ')} ` +
        'is missing. Run `npm run build` at the repository root first (or `npm run test:e2e`, which builds).',
    );
  }
}

function tail(file: string, lines = 40): string {
  if (!fs.existsSync(file)) return '(no server output)';
  return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
}

async function waitForHealth(harness: Harness, port: number) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let exited: number | null = null;
  harness.server.once('exit', (code) => {
    exited = code ?? -1;
  });
  while (Date.now() < deadline) {
    if (exited !== null) {
      throw new Error(`The portal server exited with code ${String(exited)} while starting:\n${tail(harness.serverLog)}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The portal server did not answer /api/health within ${STARTUP_TIMEOUT_MS} ms:\n${tail(harness.serverLog)}`);
}

/**
 * Starts a real SMTP sink and the built portal (`node apps/api/dist/server.js`) on free loopback
 * ports with a fresh data directory; the tests read the base URL and the inbox from the environment.
 */
export default async function globalSetup(_config: FullConfig) {
  requireBuild();
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const inboxDir = path.join(workDir, 'inbox');
  const dataDir = path.join(workDir, 'data');
  const serverLog = path.join(workDir, 'server.log');

  const sink = await startSmtpSink(inboxDir);
  const port = await freePort();
  const baseURL = `http://localhost:${port}`;

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_PORTAL_SETTINGS) delete env[name];
  Object.assign(env, {
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseURL,
    PORTAL_DATA_DIR: dataDir,
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    LOG_LEVEL: 'warn',
    // Every test signs up and in from the same loopback address; the per-account limits stay as configured.
    RATE_LIMIT_MAX_PER_IP: '1000',
    RATE_LIMIT_MAIL_PER_IP: '1000',
  });
  const logFd = fs.openSync(serverLog, 'a');
  const server = spawn(process.execPath, [SERVER_ENTRY], { cwd: REPO_ROOT, env, stdio: ['ignore', logFd, logFd] });
  fs.closeSync(logFd);

  const harness: Harness = { server, sink, workDir, serverLog };
  setHarness(harness);
  try {
    await waitForHealth(harness, port);
  } catch (error) {
    server.kill('SIGKILL');
    await sink.close();
    throw error;
  }

  process.env[BASE_URL_ENV] = baseURL;
  process.env[MAIL_DIR_ENV] = inboxDir;
  console.log(`e2e: portal at ${baseURL}, SMTP sink on 127.0.0.1:${sink.port}, work dir ${workDir}`);
}
