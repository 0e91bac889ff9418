import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { E2E_DIR, REPO_ROOT } from './harness-state.ts';

const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/api/dist/server.js');
const WEB_INDEX = path.join(REPO_ROOT, 'apps/web/dist/index.html');
const CLOCK_MODULE = pathToFileURL(path.join(E2E_DIR, 'harness/portal-clock.mjs')).href;
const STARTUP_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

// Settings of the developer's shell that would point the portal under test elsewhere.
const INHERITED_PORTAL_SETTINGS = [
  'DATABASE_URL',
  'AUTH_SECRET',
  'GOOGLE_CLIENT_ID',
  'GOOGLE_CLIENT_SECRET',
  'GOOGLE_ISSUER',
  'WEB_DIST_DIR',
  'MAIL_FROM',
  'OPERATOR_TOKEN',
  'BILLING_SCHEDULE_SECONDS',
];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export function requireBuild() {
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

export interface PortalOptions {
  port: number;
  dataDir: string;
  smtpUrl: string;
  /** Where the server's output is appended. */
  log: string;
  /** The instant the portal's clock starts at; the real time when absent. */
  clockAt?: Date;
  /** Settings beyond the ones every portal under test gets. */
  env?: NodeJS.ProcessEnv;
}

export interface PortalProcess {
  baseURL: string;
  server: ChildProcess;
}

async function waitForHealth(server: ChildProcess, port: number, log: string) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let exited: number | null = null;
  server.once('exit', (code) => {
    exited = code ?? -1;
  });
  while (Date.now() < deadline) {
    if (exited !== null) {
      throw new Error(`The portal server exited with code ${String(exited)} while starting:\n${tail(log)}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `The portal server did not answer /api/health within ${STARTUP_TIMEOUT_MS} ms:\n${tail(log)}`,
  );
}

/** Starts the built portal (`node apps/api/dist/server.js`) on a loopback port and waits until it is healthy. */
export async function startPortal(options: PortalOptions): Promise<PortalProcess> {
  const baseURL = `http://localhost:${options.port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_PORTAL_SETTINGS) delete env[name];
  Object.assign(env, {
    NODE_ENV: 'test',
    PORT: String(options.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseURL,
    PORTAL_DATA_DIR: options.dataDir,
    SMTP_URL: options.smtpUrl,
    LOG_LEVEL: 'warn',
    // Every test signs up and in from the same loopback address; the per-account limits stay as configured.
    RATE_LIMIT_MAX_PER_IP: '1000',
    RATE_LIMIT_MAIL_PER_IP: '1000',
    CARD_ATTEMPTS_PER_IP: '1000',
    ...options.env,
  });
  const nodeArgs = [SERVER_ENTRY];
  if (options.clockAt) {
    env.E2E_PORTAL_CLOCK = options.clockAt.toISOString();
    nodeArgs.unshift('--import', CLOCK_MODULE);
  }
  const logFd = fs.openSync(options.log, 'a');
  const server = spawn(process.execPath, nodeArgs, { cwd: REPO_ROOT, env, stdio: ['ignore', logFd, logFd] });
  fs.closeSync(logFd);
  try {
    await waitForHealth(server, options.port, options.log);
  } catch (error) {
    server.kill('SIGKILL');
    throw error;
  }
  return { baseURL, server };
}

/** Stops a portal server (SIGTERM, SIGKILL after 10 s); false when it had exited before. */
export async function stopPortal(server: ChildProcess): Promise<boolean> {
  if (server.exitCode !== null || server.signalCode !== null) return false;
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
  return true;
}
