/**
 * `npm run test:scale`: the portal as it is deployed (docs/deployment.md) — two instances of the
 * built server on one PostgreSQL (a throw-away cluster this test starts with initdb/pg_ctl, never
 * the machine's own server) behind a round-robin proxy — under load, across instances, through a
 * database restart and a pg_dump round trip.
 */
import type { Application, ListApplicationsResponse, RunBillingResponse } from '@portal/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { countServiceCharges, newApplicationWithUsage, organizationRow } from '../test/billing-fixtures.ts';
import { STRONG_PASSWORD } from '../test/fixtures.ts';
import { seedLoadUsers, startMixedLoad, type Failure } from './mixed-load.ts';
import {
  SHARED_SECRETS,
  invitedMember,
  organizationOwner,
  portalClient,
  signedUpUser,
  startPortalDeployment,
  type PortalDeployment,
  type PortalInstance,
} from './portal-deployment.ts';
import { canStartThrowawayCluster } from './throwaway-postgres.ts';
import { until } from './until.ts';

const LOAD_CONNECTIONS = 50;
const LOAD_SECONDS = 60;
/** The users the load signs in as, each the owner of an organisation with applications and a ledger. */
const LOAD_USERS = 5;
/** docs/security.md: any limited identity endpoint, 30 a minute per client IP (RATE_LIMIT_MAX_PER_IP). */
const SIGN_IN_LIMIT_PER_IP = 30;
/** The bound: the instances answer again within 10 s of the database being back. */
const RECOVERY_BOUND_MS = 10_000;
const RESTART_LOAD_SECONDS = 20;
/** How long into the restart scenario's load the database is restarted. */
const RESTART_AFTER_MS = 6000;
const BILLING_CYCLE = '2025-06';
const ORGANIZATIONS_TO_BILL = 20;
/**
 * The embedded region reports a network active a few seconds after it is asked. A provisioning run
 * that ended while the database was away was not recorded: it runs again once its attempt expires
 * (about a minute) and maintenance (every 15 s) notices.
 */
const PROVISIONING_WAIT_MS = 150_000;

let deployment: PortalDeployment;
let database: Database;
let loadUsers: string[];

const origin = () => deployment.url;
const [instanceA, instanceB] = [() => deployment.instances[0]!, () => deployment.instances[1]!];

/** The instances' logs, printed when a test fails: what they logged is the first thing to read. */
function printLogsOnFailure(...instances: (() => PortalInstance)[]) {
  onTestFailed(() => {
    for (const instance of instances.map((of) => of())) {
      console.error(`--- log of instance ${instance.name}\n${deployment.logOf(instance).slice(-20_000)}`);
    }
  });
}

/** What the failures of a load were: each answer's status and code (or connection error), counted. */
function tally(failures: Failure[]): Record<string, number> {
  const counts: Record<string, number> = {};
  const codeOf = (body = '') => {
    try {
      return String((JSON.parse(body) as { code?: unknown }).code);
    } catch {
      return body.slice(0, 200);
    }
  };
  for (const failure of failures) {
    const key = failure.error ? `error ${failure.error}` : `${failure.status} ${codeOf(failure.body)}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

async function listeningConnections(): Promise<number> {
  const { rows } = await database.pool!.query<{ listening: number }>(
    `SELECT count(*)::int AS listening FROM pg_stat_activity
     WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
  );
  return rows[0]!.listening;
}

describe.skipIf(!canStartThrowawayCluster())('two portal instances on one PostgreSQL behind a proxy', () => {
  beforeAll(async () => {
    deployment = await startPortalDeployment({ instances: 2 });
    // The test's own connection, to seed what the load reads and check what the instances wrote.
    database = await openDatabase({ databaseUrl: deployment.databaseUrl, dataDir: 'memory://' });
    loadUsers = await seedLoadUsers(deployment, database, LOAD_USERS);
  }, 180_000);

  afterAll(async () => {
    await database?.close();
    await deployment?.stop();
  });

  it(`serves a mixed load of ${LOAD_CONNECTIONS} connections for ${LOAD_SECONDS} s without an error`, async () => {
    printLogsOnFailure(instanceA, instanceB);
    const load = startMixedLoad({
      url: deployment.url,
      origin: origin(),
      emails: loadUsers,
      connections: LOAD_CONNECTIONS,
      durationSeconds: LOAD_SECONDS,
    });
    const result = await load.result;
    console.log(
      `mixed load through the proxy to 2 instances: ${result.requests.total} requests in ${LOAD_SECONDS} s ` +
        `(${Math.round(result.requests.average)} req/s), latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
    );
    expect(tally(result.failures)).toEqual({});
    expect({ errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx }).toEqual({
      errors: 0,
      timeouts: 0,
      non2xx: 0,
    });
    expect(result.requests.total).toBeGreaterThan(0);
  });

  it(`refuses the ${SIGN_IN_LIMIT_PER_IP + 1}st wrong sign-in from one IP whichever instance answers`, async () => {
    const address = '203.0.113.7';
    const wrongSignIn = (base: string, attempt: number) =>
      portalClient(base, origin(), { clientAddress: address }).request('POST', '/api/auth/sign-in/email', {
        email: `nobody${attempt}@limits.example.com`,
        password: 'Wr0ng!Password',
      });
    // Through the proxy, so the instances take turns counting them.
    for (let attempt = 1; attempt <= SIGN_IN_LIMIT_PER_IP; attempt += 1) {
      expect((await wrongSignIn(deployment.url, attempt)).status).toBe(401);
    }
    for (const instance of [instanceA(), instanceB()]) {
      const refused = await wrongSignIn(instance.url, SIGN_IN_LIMIT_PER_IP + 1);
      expect({ instance: instance.name, status: refused.status }).toEqual({
        instance: instance.name,
        status: 429,
      });
      expect(JSON.parse(refused.text)).toMatchObject({ code: 'RATE_LIMITED' });
    }
  });

  it('refuses a member deleted through one instance at the next request through the other', async () => {
    printLogsOnFailure(instanceA, instanceB);
    const owner = await organizationOwner(instanceA().url, origin(), 'owner@members.example.com');
    const joined = await invitedMember(owner, instanceA().url, origin(), 'dev@members.example.com');
    const member = portalClient(instanceB().url, origin(), { cookie: joined.state.cookie });
    // Instance B keeps its answer for this session (decision 027) once asked a few times.
    for (let read = 0; read < 5; read += 1) await member.call('GET', '/api/v1/accounts/me');

    await owner.call('DELETE', `/api/v1/members/${joined.memberId}`);
    const next = await member.request('GET', '/api/v1/accounts/me');
    expect(next.status).toBe(401);
  });

  it('bills each organisation once when a billing run starts on both instances at once', async () => {
    printLogsOnFailure(instanceA, instanceB);
    const organizations: string[] = [];
    for (let index = 0; index < ORGANIZATIONS_TO_BILL; index += 1) {
      const id = crypto.randomUUID();
      await database.db
        .insert(schema.organization)
        .values({ id, email: `billing@${id}.example.com`, isFilled: true, balanceCents: 10_000 });
      await newApplicationWithUsage(database.db, id, {
        plan: 'advance',
        billingCycle: BILLING_CYCLE,
        mau: 100,
      });
      organizations.push(id);
    }
    const runOn = async (instance: PortalInstance) => {
      const response = await fetch(`${instance.url}/api/operator/v1/billing-runs`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${SHARED_SECRETS.OPERATOR_TOKEN}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ month: BILLING_CYCLE }),
      });
      expect(response.status, await response.clone().text()).toBe(200);
      return (await response.json()) as RunBillingResponse;
    };
    const runs = await Promise.all([runOn(instanceA()), runOn(instanceB())]);

    expect(runs.flatMap((run) => run.failed)).toEqual([]);
    // Between them the two runs billed every organisation (the load's own among them) once.
    const billed = runs.flatMap((run) => run.billed.map((invoice) => invoice.organizationId));
    expect(billed.length).toBe(new Set(billed).size);
    expect(organizations.filter((id) => !billed.includes(id))).toEqual([]);
    for (const id of organizations) {
      expect(await countServiceCharges(database.db, id, BILLING_CYCLE)).toBe(1);
      // 100 MAU at 0.09 taken from the balance once.
      expect((await organizationRow(database.db, id)).balanceCents).toBe(9100);
    }
  });

  it('rides out a PostgreSQL restart under load: 503s in flight only, back within 10 s, sessions and jobs resume', async () => {
    printLogsOnFailure(instanceA, instanceB);
    const owner = await organizationOwner(deployment.url, origin(), 'owner@restart.example.com');
    const load = startMixedLoad({
      url: deployment.url,
      origin: origin(),
      emails: loadUsers,
      connections: LOAD_CONNECTIONS,
      durationSeconds: RESTART_LOAD_SECONDS,
    });
    await new Promise((resolve) => setTimeout(resolve, RESTART_AFTER_MS));
    // Provisioning jobs under way while the database goes away: none may be lost.
    const before: Application[] = [];
    for (const name of ['Before one', 'Before two', 'Before three']) {
      const [created] = await owner.call<Application[]>('POST', '/api/v1/applications', {
        name,
        plan: 'advance',
        region: 'EU',
      });
      before.push(created!);
    }
    await deployment.cluster.restart();
    const backAt = Date.now();

    // Each instance answers a signed-in read again, without being restarted.
    const recoveryMs = await Promise.all(
      [instanceA(), instanceB()].map((instance) =>
        until(`instance ${instance.name} answering after the restart`, RECOVERY_BOUND_MS, async () => {
          if (instance.process.exitCode !== null) throw new Error(`instance ${instance.name} exited`);
          const probe = portalClient(instance.url, origin(), { cookie: owner.state.cookie });
          return (await probe.request('GET', '/api/v1/accounts/me')).status === 200;
        }),
      ),
    );
    const result = await load.result;
    console.log(
      `PostgreSQL restarted under load: instances answering again ${recoveryMs.join(' ms and ')} ms after it was back; ` +
        `load ${result.requests.total} requests, p99 ${result.latency.p99} ms, failures ${JSON.stringify(tally(result.failures))}`,
    );
    // What failed, failed as 503 {code, message}: never a 500, a reset connection or a timeout.
    for (const failure of result.failures) {
      expect(failure.error).toBeUndefined();
      expect(failure.status).toBe(503);
      expect(JSON.parse(failure.body!)).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.any(String),
      });
    }
    // Requests arriving once the instances were back all succeeded.
    const recoveredAt = backAt + Math.max(...recoveryMs);
    expect(result.failures.filter((failure) => failure.at > recoveredAt + 1000)).toEqual([]);
    expect(result.timeouts).toBe(0);
    expect(deployment.instances.map((instance) => instance.process.exitCode)).toEqual([null, null]);

    // Both instances listen for session changes again, and a session ended through one is refused
    // by the other, which kept its answer.
    await until(
      'both instances listening again',
      RECOVERY_BOUND_MS,
      async () => (await listeningConnections()) === 2,
    );
    const user = await signedUpUser(instanceA().url, origin(), 'revoked@restart.example.com');
    const onB = portalClient(instanceB().url, origin(), { cookie: user.state.cookie });
    for (let read = 0; read < 5; read += 1) await onB.call('GET', '/api/v1/accounts/me');
    await user.call('POST', '/api/auth/sign-out', {});
    expect((await onB.request('GET', '/api/v1/accounts/me')).status).toBe(401);

    // A job sent after the restart runs, and the ones under way at the restart all finished.
    const [after] = await owner.call<Application[]>('POST', '/api/v1/applications', {
      name: 'After',
      plan: 'advance',
      region: 'EU',
    });
    const ids = [...before, after!].map((app) => app.applicationId).sort();
    await until('every application provisioned', PROVISIONING_WAIT_MS, async () => {
      const list = await owner.call<ListApplicationsResponse>('GET', '/api/v1/applications?limit=10');
      return list.data.length === ids.length && list.data.every((app) => app.state === 'active');
    });
    const list = await owner.call<ListApplicationsResponse>('GET', '/api/v1/applications?limit=10');
    expect(list.data.map((app) => app.applicationId).sort()).toEqual(ids);
    const { rows: failedJobs } = await database.pool!.query(
      `SELECT name, state FROM pgboss.job WHERE state = 'failed'`,
    );
    expect(failedJobs).toEqual([]);
  });

  it('restores a pg_dump of the database into a new one that a new instance serves', async () => {
    const { cluster } = deployment;
    const dumpFile = cluster.fileIn('portal.dump');
    const connection = ['-h', '127.0.0.1', '-p', String(cluster.port), '-U', 'postgres'];
    await cluster.program('pg_dump', [...connection, '--format=custom', '--file', dumpFile, 'portal']);
    const restoredUrl = await cluster.createDatabase('portal_restored');
    await cluster.program('pg_restore', [
      ...connection,
      '--dbname',
      'portal_restored',
      '--exit-on-error',
      dumpFile,
    ]);

    const tables = [
      'user',
      'account',
      'organization',
      'member',
      'application',
      'ledger_transaction',
      'invoice_line',
    ];
    const countsOf = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const counts: Record<string, number> = {};
        for (const table of tables) {
          const { rows } = await client.query<{ rows: number }>(
            `SELECT count(*)::int AS rows FROM "${table}"`,
          );
          counts[table] = rows[0]!.rows;
        }
        return counts;
      } finally {
        await client.end();
      }
    };
    const original = await countsOf(deployment.databaseUrl);
    expect(await countsOf(restoredUrl)).toEqual(original);
    expect(original.application).toBeGreaterThan(0);

    const restored = await deployment.startInstance('restored', restoredUrl);
    const owner = portalClient(restored.url, origin());
    await owner.call('POST', '/api/auth/sign-in/email', { email: loadUsers[0], password: STRONG_PASSWORD });
    const apps = await owner.call<ListApplicationsResponse>('GET', '/api/v1/applications?limit=10');
    const onOriginal = portalClient(deployment.url, origin());
    await onOriginal.call('POST', '/api/auth/sign-in/email', {
      email: loadUsers[0],
      password: STRONG_PASSWORD,
    });
    expect(apps).toEqual(
      await onOriginal.call<ListApplicationsResponse>('GET', '/api/v1/applications?limit=10'),
    );
  });
});
