/**
 * `npm run bench:apps`: GET /api/v1/applications for an organisation holding 10,000 applications.
 *
 * The portal runs in this process on PostgreSQL when DATABASE_URL is set (a fresh database,
 * dropped afterwards), on a fresh PGlite directory otherwise. One owner signs up through the API;
 * the applications are inserted straight into the database (provisioning is not what is measured).
 * autocannon then drives the list with the default limit (10) and with the list page's limit
 * (all of them). Target: p95 ≤ 50 ms on PostgreSQL for the default call.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APPLICATION_LIST_MAX_LIMIT, PLAN_KEYS, REGION_KEYS } from '@portal/contracts';
import type { Result } from 'autocannon';
import { eq } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { testConfig } from '../test/fixtures.ts';
import { createScratchDatabase } from '../test/scratch-database.ts';
import { DURATION_SECONDS, load, signedInOwner } from './bench-support.ts';

const APPLICATIONS = 10_000;
const TARGET_P95_MS = 50;

/** autocannon reports p90 and p97.5 but not p95: the p95 lies between them; report the p97.5 as its upper bound. */
function p95UpperBound(result: Result): number {
  return result.latency.p97_5;
}

async function seedApplications(database: Database, ownerEmail: string) {
  const [owner] = await database.db
    .select({ organizationId: schema.member.organizationId })
    .from(schema.member)
    .innerJoin(schema.user, eq(schema.user.id, schema.member.userId))
    .where(eq(schema.user.email, ownerEmail));
  if (!owner) throw new Error('the bench owner has no organisation');
  const started = Date.now() - APPLICATIONS * 1000;
  const rows = Array.from({ length: APPLICATIONS }, (_, i) => ({
    id: crypto.randomUUID(),
    organizationId: owner.organizationId,
    name: `Bench app ${String(i).padStart(5, '0')}`,
    plan: PLAN_KEYS[i % PLAN_KEYS.length]!,
    region: REGION_KEYS[i % REGION_KEYS.length]!,
    state: 'active' as const,
    networkId: `net_bench_${i}`,
    consoleUrl: `http://localhost/regions/eu/console/net_bench_${i}`,
    createdAt: new Date(started + i * 1000),
  }));
  for (let i = 0; i < rows.length; i += 1000) {
    await database.db.insert(schema.application).values(rows.slice(i, i + 1000));
  }
}

async function measure(label: string, open: (dataDir: string) => Promise<Database>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-apps-'));
  const database = await open(dataDir);
  const app = await buildApp({ config: testConfig(dataDir), database });
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const email = 'bench-apps@acme.io';
    const cookie = await signedInOwner(base, email);
    console.error(`${label}: seeding ${APPLICATIONS} applications`);
    await seedApplications(database, email);
    console.error(`${label}: GET /api/v1/applications (limit 10) for ${DURATION_SECONDS} s`);
    const firstPage = await load(`${base}/api/v1/applications`, { cookie });
    console.error(`${label}: GET /api/v1/applications?limit=${APPLICATION_LIST_MAX_LIMIT} for ${DURATION_SECONDS} s`);
    const all = await load(`${base}/api/v1/applications?limit=${APPLICATION_LIST_MAX_LIMIT}`, { cookie });
    return { label, firstPage, all };
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const serverUrl = process.env.DATABASE_URL;
  const scratch = serverUrl ? await createScratchDatabase(serverUrl, 'portal_bench_apps') : undefined;
  try {
    const result = scratch
      ? await measure('PostgreSQL', () => openDatabase({ databaseUrl: scratch.url, dataDir: 'memory://' }))
      : await measure('PGlite', (dataDir) => openDatabase({ databaseUrl: undefined, dataDir }));
    console.log(`\nApplications list, ${APPLICATIONS} applications in one organisation, ${result.label}, ${new Date().toISOString().slice(0, 10)}\n`);
    console.log('| call | req/s | p50 ms | p95 ms (≤ p97.5) | p99 ms |');
    console.log('|---|---|---|---|---|');
    for (const [name, r] of [['limit 10 (default)', result.firstPage], [`limit ${APPLICATION_LIST_MAX_LIMIT} (list page)`, result.all]] as const) {
      console.log(`| ${name} | ${Math.round(r.requests.average)} | ${r.latency.p50} | ${p95UpperBound(r)} | ${r.latency.p99} |`);
    }
    const met = p95UpperBound(result.firstPage) <= TARGET_P95_MS;
    console.log(`\ndefault call p95 ≤ ${TARGET_P95_MS} ms: ${met ? 'met' : 'MISSED'}`);
    if (!met) process.exitCode = 1;
  } finally {
    await scratch?.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
