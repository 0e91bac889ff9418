/**
 * `npm run bench:scale`: what a second portal instance adds on this machine. For one and then two
 * instances of the built server (apps/api/dist, `npm run build -w apps/api` first) on a throw-away
 * PostgreSQL cluster behind the round-robin proxy (the scale test's deployment, apps/api/scale/),
 * the mixed load of the scale test — sign-in, then the account, applications, members and billing
 * list three times — from 50 connections: throughput and p99, and the ratio of two to one; and one
 * instance without the proxy, for what the proxy costs. Each deployment is fresh; a short
 * unrecorded run warms it first. Exits 1 when a run had an error.
 *
 * Everything (PostgreSQL, the instances, the proxy and autocannon) shares this machine's cores, so
 * the ratio says what a second process on the same machine gives, not a second machine.
 */
import os from 'node:os';
import { openDatabase } from '../src/db/client.ts';
import { seedLoadUsers, startMixedLoad } from '../scale/mixed-load.ts';
import { startPortalDeployment } from '../scale/portal-deployment.ts';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 30);
const WARM_UP_SECONDS = 5;
const CONNECTIONS = 50;
const LOAD_USERS = 5;

interface Measurement {
  instances: number;
  /** Whether the load went through the proxy or straight to the one instance. */
  throughProxy: boolean;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

async function measure(instances: number, throughProxy = true): Promise<Measurement> {
  console.error(`${instances} instance(s): starting PostgreSQL, the portal and the proxy`);
  const deployment = await startPortalDeployment({ instances });
  try {
    const database = await openDatabase({ databaseUrl: deployment.databaseUrl, dataDir: 'memory://' });
    const emails = await seedLoadUsers(deployment, database, LOAD_USERS).finally(() => database.close());
    const run = (durationSeconds: number) =>
      startMixedLoad({
        url: deployment.url,
        origin: deployment.url,
        emails,
        connections: CONNECTIONS,
        durationSeconds,
      }).result;
    await run(WARM_UP_SECONDS);
    console.error(
      `${instances} instance(s): mixed load, ${CONNECTIONS} connections, ${DURATION_SECONDS} s${throughProxy ? '' : ', without the proxy'}`,
    );
    const result = await run(DURATION_SECONDS);
    return {
      instances,
      throughProxy,
      requestsPerSecond: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      failures: result.failures.length + result.timeouts,
    };
  } finally {
    await deployment.stop();
  }
}

// One instance without the proxy too: what the proxy (a Node process on the same cores) costs.
const direct = await measure(1, false);
const one = await measure(1);
const two = await measure(2);

console.log(
  `\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
    `Node ${process.version}, load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
);
console.log(`Mixed load, ${CONNECTIONS} connections, ${DURATION_SECONDS} s:`);
console.log('instances  proxy  req/s  p50 ms  p99 ms  failures');
for (const row of [direct, one, two]) {
  console.log(
    `${String(row.instances).padStart(9)}  ${(row.throughProxy ? 'yes' : 'no').padStart(5)}  ` +
      `${row.requestsPerSecond.toFixed(0).padStart(5)}  ` +
      `${String(row.p50Ms).padStart(6)}  ${String(row.p99Ms).padStart(6)}  ${String(row.failures).padStart(8)}`,
  );
}
console.log(
  `two / one: throughput ×${(two.requestsPerSecond / one.requestsPerSecond).toFixed(2)}, p99 ×${(two.p99Ms / one.p99Ms).toFixed(2)}`,
);
if (direct.failures + one.failures + two.failures > 0) {
  console.error('Some requests failed: the figures are not a measurement of the portal working.');
  process.exit(1);
}
