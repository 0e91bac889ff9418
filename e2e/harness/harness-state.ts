import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SmtpSink } from './smtp-sink.ts';

export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = path.resolve(E2E_DIR, '..');

/** Set by the global setup; the config and the worker processes read the portal's address from it. */
export const BASE_URL_ENV = 'E2E_BASE_URL';
/** The portal's data dir, where it keeps the operator token the operator CLI reads. */
export const DATA_DIR_ENV = 'E2E_PORTAL_DATA_DIR';
/** The SMTP sink, for a test that starts a portal of its own. */
export const SMTP_URL_ENV = 'E2E_SMTP_URL';

/** What the global setup started, handed to the global teardown (both run in the runner process). */
export interface Harness {
  server: ChildProcess;
  sink: SmtpSink;
  workDir: string;
  serverLog: string;
}

const KEY = Symbol.for('portal.e2e.harness');

export function setHarness(harness: Harness) {
  (globalThis as Record<symbol, unknown>)[KEY] = harness;
}

export function takeHarness(): Harness | undefined {
  const store = globalThis as Record<symbol, unknown>;
  const harness = store[KEY] as Harness | undefined;
  delete store[KEY];
  return harness;
}
