/**
 * What the benchmarks share: the portal on a fresh database, the API as the web app calls it, an
 * organisation's worth of applications, and an autocannon run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PLAN_KEYS, REGION_KEYS } from '@portal/contracts';
import autocannon, { type Result } from 'autocannon';
import { eq } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { INITIAL_SETUP, STRONG_PASSWORD, TEST_ORIGIN, codeFromMail, testConfig } from '../test/fixtures.ts';
import { createScratchDatabase } from '../test/scratch-database.ts';

export const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = 10;

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export type DatabaseKind = 'PGlite' | 'PostgreSQL';

export interface BenchPortal {
  databaseKind: DatabaseKind;
  database: Database;
  /** Where the portal listens, e.g. http://127.0.0.1:43121. */
  base: string;
}

/**
 * Runs `use` against the portal (buildApp with the test configuration, listening on a free loopback
 * port, serving the built web app when there is one) over a fresh database: a new database on the
 * PostgreSQL server of `serverUrl`, dropped afterwards, or without one PGlite in a new temporary
 * directory. Migrations run as at start-up. `settings` are configuration variables on top of the test
 * configuration, e.g. WEB_DIST_DIR for a web build made elsewhere than apps/web/dist.
 */
export async function withFreshPortal<T>(
  serverUrl: string | undefined,
  use: (portal: BenchPortal) => Promise<T>,
  settings: Record<string, string> = {},
): Promise<T> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
  const scratch = serverUrl ? await createScratchDatabase(serverUrl, 'portal_bench') : undefined;
  try {
    const database = await openDatabase(
      scratch ? { databaseUrl: scratch.url, dataDir: 'memory://' } : { databaseUrl: undefined, dataDir },
    );
    const app = await buildApp({ config: testConfig(dataDir, settings), database });
    try {
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      return await use({ databaseKind: scratch ? 'PostgreSQL' : 'PGlite', database, base });
    } finally {
      await app.close();
      await database.close();
    }
  } finally {
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Calls `call` `warmUps` times unmeasured, then `times` times in sequence: each call's duration in ms. */
export async function sequentialMs(times: number, warmUps: number, call: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmUps; i += 1) await call();
  const durations: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await call();
    durations.push(performance.now() - started);
  }
  return durations;
}

/** The portal's API as the web app calls it: at `base`, from the portal's own origin. */
export function client(base: string) {
  const call = async (method: string, url: string, body?: unknown, cookie?: string) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        // The portal's configured origin, whatever port the bench listens on.
        origin: TEST_ORIGIN,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(cookie ? { cookie } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
    return response;
  };
  const signIn = async (email: string) => {
    const response = await call('POST', '/api/auth/sign-in/email', { email, password: STRONG_PASSWORD });
    return response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  };
  return { call, signIn };
}

export async function signedInOwner(base: string, email: string) {
  const { call, signIn } = client(base);
  await call('POST', '/api/auth/sign-up/email', { email, password: STRONG_PASSWORD, name: 'bench' });
  const mails = (await (await call('GET', `/dev/mailbox/messages?to=${encodeURIComponent(email)}`)).json()) as { text: string }[];
  const otp = codeFromMail(mails[0]?.text ?? '', 'confirmation_code');
  await call('POST', '/api/auth/email-otp/verify-email', { email, otp });
  const cookie = await signIn(email);
  await call('PUT', '/api/v1/accounts', INITIAL_SETUP, cookie);
  return cookie;
}

/**
 * Drives `url` with autocannon; any answer slower than `timeoutSeconds` fails the run. `mix` makes
 * each connection send those paths in turn, `connections` overrides the default count.
 */
export async function load(
  url: string,
  headers: Record<string, string> = {},
  timeoutSeconds = 10,
  { mix, connections = CONNECTIONS }: { mix?: string[]; connections?: number } = {},
): Promise<Result> {
  const options = {
    url,
    connections,
    workers: 1,
    headers,
    timeout: timeoutSeconds,
    ...(mix ? { requests: mix.map((path) => ({ method: 'GET', path })) } : {}),
  };
  // A short unrecorded run first, so JIT warm-up and pool growth are not measured.
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: DURATION_SECONDS });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result;
}


export function benchApplicationName(index: number): string {
  return `Bench app ${String(index).padStart(5, '0')}`;
}

/** The organisation of the member signed up as `email`. */
export async function organizationIdOf(database: Database, email: string): Promise<string> {
  const [owner] = await database.db
    .select({ organizationId: schema.member.organizationId })
    .from(schema.member)
    .innerJoin(schema.user, eq(schema.user.id, schema.member.userId))
    .where(eq(schema.user.email, email));
  if (!owner) throw new Error(`${email} has no organisation`);
  return owner.organizationId;
}

/**
 * Inserts `count` active applications straight into the database for the organisation of
 * `ownerEmail` (provisioning is not what the benchmarks measure), spread over every plan and
 * region. Application i is named benchApplicationName(i) and created one second after i - 1, so
 * the list (newest first) starts with the highest index.
 */
export async function seedApplications(database: Database, ownerEmail: string, count: number) {
  const organizationId = await organizationIdOf(database, ownerEmail);
  const started = Date.now() - count * 1000;
  const rows = Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    organizationId,
    name: benchApplicationName(i),
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
