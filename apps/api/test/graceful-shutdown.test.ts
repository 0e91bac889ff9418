import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { newOrganization } from './billing-fixtures.ts';
import { freePort, startServer } from './crash-recovery.ts';
import { createScratchDatabase } from './scratch-database.ts';

/*
 * SIGTERM to the real server (a deploy, a scale-down): it stops accepting connections, answers the
 * request under way, and exits 0. The slow request is an operator's usage import, held by a stand-in
 * for the regions' admin API until the test lets it answer. On PostgreSQL with TEST_DATABASE_URL.
 */

const OPERATOR_TOKEN = 'operator-token-of-the-shutdown-test';
const REGION_ADMIN_TOKEN = 'region-admin-token-of-the-shutdown-test';

/** The regions' admin API, answering no usage, each call held until `release()`. */
class HeldRegions {
  private server = http.createServer((request, response) => {
    this.markCalled();
    void this.released.then(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('[]');
    });
  });
  private markCalled!: () => void;
  /** Settles at the first call. */
  readonly called = new Promise<void>((resolve) => (this.markCalled = resolve));
  release!: () => void;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));
  url = '';

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  env(): Record<string, string> {
    return {
      REGION_SG_URL: `${this.url}/sg`,
      REGION_EU_URL: `${this.url}/eu`,
      REGION_US_URL: `${this.url}/us`,
      REGION_ADMIN_TOKEN,
    };
  }

  async stop() {
    this.release();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Whether a new connection to the port is refused. */
function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

const cleanUps: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

/** An application with a regional network, so that the usage import asks the regions. */
async function seedApplicationWithNetwork(dataDir: string, databaseUrl: string) {
  const database = await openDatabase({ databaseUrl: databaseUrl || undefined, dataDir });
  try {
    const organizationId = await newOrganization(database.db);
    await database.db.insert(schema.application).values({
      id: crypto.randomUUID(),
      organizationId,
      name: 'Held',
      plan: 'advance',
      region: 'EU',
      state: 'active',
      networkId: 'net-held',
    });
  } finally {
    await database.close();
  }
}

it('on SIGTERM answers the request under way, refuses new connections and exits 0', async () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const scratch = serverUrl ? await createScratchDatabase(serverUrl, 'portal_shutdown') : undefined;
  if (scratch) cleanUps.push(() => scratch.drop());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-shutdown-'));
  cleanUps.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const regions = await new HeldRegions().start();
  cleanUps.push(() => regions.stop());
  const databaseUrl = scratch?.url ?? '';
  await seedApplicationWithNetwork(dataDir, databaseUrl);

  const port = await freePort();
  const server: ChildProcess = await startServer(port, dataDir, databaseUrl, {
    env: { ...regions.env(), OPERATOR_TOKEN, BILLING_SCHEDULE_SECONDS: '0', LOG_LEVEL: 'info' },
    pipeStdout: true,
  });
  cleanUps.push(() => server.kill('SIGKILL'));
  const logLines: Record<string, unknown>[] = [];
  readline.createInterface({ input: server.stdout! }).on('line', (line) => {
    if (line.startsWith('{')) logLines.push(JSON.parse(line) as Record<string, unknown>);
  });
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));

  const slowRequest = fetch(`http://127.0.0.1:${port}/api/operator/v1/usage-imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ month: '2025-03' }),
  });
  await regions.called;
  server.kill('SIGTERM');

  // The listening socket closes while the request is still held.
  const deadline = Date.now() + 30_000;
  while (!(await refusesConnections(port))) {
    if (Date.now() > deadline) throw new Error('the server still accepts connections 30 s after SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(server.exitCode).toBeNull();

  regions.release();
  const answer = await slowRequest;
  expect(answer.status).toBe(200);
  // Its connection closes after it: a keep-alive connection would hold the shutdown until it timed out.
  expect(answer.headers.get('connection')).toBe('close');
  expect(await answer.json()).toEqual({ month: '2025-03', recorded: 0 });
  expect(await exited).toBe(0);

  // Every line Fastify wrote about the request carries the id it answered in X-Request-Id.
  const requestId = answer.headers.get('x-request-id');
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  const ofRequest = logLines.filter((line) => line.reqId === requestId).map((line) => line.msg);
  expect(ofRequest).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
  expect(
    logLines.filter((line) => 'req' in line || 'res' in line).every((line) => typeof line.reqId === 'string'),
  ).toBe(true);
}, 180_000);
