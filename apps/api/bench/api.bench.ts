/**
 * `npm run bench:api`: the portal API's throughput and sign-in latency on this machine.
 *
 * Starts the portal in this process (buildApp + listen on a free loopback port) on a fresh
 * embedded PGlite directory and, when DATABASE_URL names a PostgreSQL server, again on a fresh
 * database there (dropped afterwards). One user signs up, verifies and sets up an organisation
 * through the API; autocannon (in a worker thread, so the load does not share the server's event
 * loop) then drives GET /api/health and GET /api/v1/accounts/me with the session cookie, and
 * sequential sign-ins give the sign-in latency. Exits 1 when a target is missed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Result } from 'autocannon';
import { buildApp } from '../src/app.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { testConfig } from '../test/fixtures.ts';
import { createScratchDatabase } from '../test/scratch-database.ts';
import { CONNECTIONS, DURATION_SECONDS, client, load, percentile, signedInOwner } from './bench-support.ts';

const SIGN_INS = 30;
const TARGETS = { meShareOfHealthOnPostgres: 0.25, meRequestsPerSecondOnPglite: 1000, signInP50Ms: 100 };

interface Measurement {
  database: 'PGlite' | 'PostgreSQL';
  health: Result;
  me: Result;
  signInMs: number[];
}

async function measure(label: Measurement['database'], open: (dataDir: string) => Promise<Database>): Promise<Measurement> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  const config = testConfig(dataDir);
  const database = await open(dataDir);
  const app = await buildApp({ config, database });
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    console.error(`${label}: portal on ${base}, signing up one user`);
    const email = 'bench@acme.io';
    const cookie = await signedInOwner(base, email);

    console.error(`${label}: GET /api/health for ${DURATION_SECONDS} s`);
    const health = await load(`${base}/api/health`);
    console.error(`${label}: GET /api/v1/accounts/me for ${DURATION_SECONDS} s`);
    const me = await load(`${base}/api/v1/accounts/me`, { cookie });

    console.error(`${label}: ${SIGN_INS} sequential sign-ins`);
    const { signIn } = client(base);
    for (let i = 0; i < 3; i += 1) await signIn(email);
    const signInMs: number[] = [];
    for (let i = 0; i < SIGN_INS; i += 1) {
      const started = performance.now();
      await signIn(email);
      signInMs.push(performance.now() - started);
    }
    return { database: label, health, me, signInMs };
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(measurements: Measurement[], loadBefore: number) {
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const rows = measurements.map((m) => [
    m.database,
    fmt(m.health.requests.average),
    String(m.health.latency.p99),
    fmt(m.me.requests.average),
    String(m.me.latency.p99),
    `${Math.round((m.me.requests.average / m.health.requests.average) * 100)} %`,
    percentile(m.signInMs, 50).toFixed(1),
    percentile(m.signInMs, 95).toFixed(1),
  ]);
  const header = ['database', 'health req/s', 'health p99 ms', 'me req/s', 'me p99 ms', 'me/health', 'sign-in p50 ms', 'sign-in p95 ms'];
  const cpus = os.cpus();
  console.log(
    `\nPortal API benchmark, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
      `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per endpoint, ` +
      `load average ${loadBefore.toFixed(2)} before the run\n`,
  );
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);

  const checks: [string, boolean][] = [];
  for (const m of measurements) {
    const p50 = percentile(m.signInMs, 50);
    checks.push([`${m.database}: sign-in p50 ${p50.toFixed(1)} ms ≤ ${TARGETS.signInP50Ms} ms`, p50 <= TARGETS.signInP50Ms]);
    if (m.database === 'PGlite') {
      const rps = m.me.requests.average;
      checks.push([`PGlite: me ${fmt(rps)} req/s ≥ ${fmt(TARGETS.meRequestsPerSecondOnPglite)}`, rps >= TARGETS.meRequestsPerSecondOnPglite]);
    } else {
      const share = m.me.requests.average / m.health.requests.average;
      checks.push([
        `PostgreSQL: me at ${Math.round(share * 100)} % of health ≥ ${TARGETS.meShareOfHealthOnPostgres * 100} %`,
        share >= TARGETS.meShareOfHealthOnPostgres,
      ]);
    }
  }
  console.log('');
  for (const [label, met] of checks) console.log(`${met ? 'met   ' : 'MISSED'} ${label}`);
  if (checks.some(([, met]) => !met)) process.exitCode = 1;
}

async function main() {
  // Other work on the machine skews every figure; the report states the load it started from.
  const loadBefore = os.loadavg()[0] ?? 0;
  if (loadBefore > 0.5) console.error(`warning: load average is ${loadBefore.toFixed(2)}; figures will be low`);
  const measurements = [await measure('PGlite', (dataDir) => openDatabase({ databaseUrl: undefined, dataDir }))];
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const scratch = await createScratchDatabase(serverUrl, 'portal_bench');
    try {
      measurements.push(await measure('PostgreSQL', () => openDatabase({ databaseUrl: scratch.url, dataDir: 'memory://' })));
    } finally {
      await scratch.drop();
    }
  }
  report(measurements, loadBefore);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
