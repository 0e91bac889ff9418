import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { REPO_ROOT } from './harness-state.ts';

const STARTUP_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

export interface RegionProcessOptions {
  port: number;
  /** The portal whose tokens the regions trust and whose pages may call them. */
  portalUrl: string;
  adminToken: string;
  /** Where the regions' output is appended. */
  log: string;
}

export interface RegionProcess {
  /** Where browsers and the portal reach the regions: the base of /regions/{sg|eu|us}. */
  url: string;
  process: ChildProcess;
}

/**
 * The regional platform emulator as its own process (`npm run region -- …`), on 127.0.0.1: another
 * site than the portal's http://localhost, as regions at their own addresses are. Resolves once it
 * says it is listening.
 */
export async function startRegionProcess(options: RegionProcessOptions): Promise<RegionProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const portalOrigin = new URL(options.portalUrl).origin;
  const logFd = fs.openSync(options.log, 'a');
  const child = spawn(
    'npm',
    [
      'run',
      '--silent',
      'region',
      '--',
      ...['--port', String(options.port), '--host', '127.0.0.1'],
      ...['--portal-url', options.portalUrl, '--portal-origin', portalOrigin],
      ...['--public-base-url', url, '--admin-token', options.adminToken],
      ...['--data-dir', 'memory://', '--provisioning-delay-ms', '500'],
    ],
    // Its own process group, so stopping it stops npm and the node process npm started.
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', logFd], detached: true },
  );
  fs.closeSync(logFd);
  try {
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(
        () => reject(new Error(`The regions did not start within ${STARTUP_TIMEOUT_MS} ms: ${output}`)),
        STARTUP_TIMEOUT_MS,
      );
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        fs.appendFileSync(options.log, chunk);
        if (output.includes('listening on')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`The regions exited with code ${String(code)} while starting: ${output}`));
      });
    });
  } catch (error) {
    await stopRegionProcess(child);
    throw error;
  }
  // Later output still goes to the log, and the pipe never fills.
  child.stdout?.on('data', (chunk: Buffer) => fs.appendFileSync(options.log, chunk));
  return { url, process: child };
}

/** Stops the regions' process group (SIGTERM, SIGKILL after 10 s). */
export async function stopRegionProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // The group has gone already.
    }
  };
  signalGroup('SIGTERM');
  const timer = setTimeout(() => signalGroup('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
