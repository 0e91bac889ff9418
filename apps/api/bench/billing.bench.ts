/**
 * `npm run bench:billing`: the billing pages' calls over a long ledger, the invoice PDF, and the
 * monthly billing run over many organisations.
 *
 * The portal runs in this process on PostgreSQL when DATABASE_URL is set (a fresh database, dropped
 * afterwards), on a fresh PGlite directory otherwise. One owner signs up through the API; the rest is
 * written straight into the database with SQL (what is measured is reading and billing, not how the
 * rows came to be):
 *
 * - the owner's organisation: 3 applications and 100,000 ledger transactions, one every 25 minutes
 *   from November 2021 (top-ups, other movements and, first of each month, the previous month's
 *   MAU-based service charge with a line per application), among 400,000 of other organisations;
 * - 10,000 more organisations, 90 % PAYG (balances from ample to none, some in their trial) and
 *   10 % flat-rate, each with 3 active applications and their usage of the last two months.
 *
 * Then, one call at a time with the owner's session: GET /api/v1/transactions (pages spread over the
 * whole ledger, in both sort orders), POST /api/v1/transactions/search (prefixes of the padded id),
 * and the invoice PDF through a signed link from the report endpoint. Last, runMonthlyBilling bills
 * the month that ended before today for every organisation, and once more (all already billed).
 *
 * Targets on PostgreSQL: p95 ≤ 50 ms for each list and search row, p95 ≤ 300 ms for the PDF, the
 * run ≤ 60 s. On PGlite the figures are reported without a target.
 */
import os from 'node:os';
import { PLAN_KEYS, REGION_KEYS, TRANSACTION_PAGE_SIZE } from '@portal/contracts';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { monthlyRunService, type BillingRunResult } from '../src/modules/billing/monthly-run.service.ts';
import {
  client,
  organizationIdOf,
  percentile,
  seedApplications,
  sequentialMs,
  signedInOwner,
  withFreshPortal,
  type DatabaseKind,
} from './bench-support.ts';

const TRANSACTIONS = 100_000;
const OTHER_ROWS_PER_OWNER_ROW = 4;
const ORGANIZATIONS = 10_000;
const APPLICATIONS_PER_ORGANIZATION = 3;
const CALLS = 60;
const WARM_UPS = 5;
const PDF_CALLS = 30;
const TARGETS = { callP95Ms: 50, pdfP95Ms: 300, runSeconds: 60 };
const PRODUCT_NAME = 'Social';

/** The month that ended before `now`, `YYYY-MM`. */
function previousCycle(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

/**
 * The ledger: the owner's TRANSACTIONS rows, one every 25 minutes from 2021-11-01, each followed by
 * OTHER_ROWS_PER_OWNER_ROW rows of the other organisations, so that the owner's rows lie among theirs
 * as in a ledger that many organisations write to. The owner's first row of each month is the
 * previous month's MAU-based service charge (27,000 cents: a line of 9,000 per application), every
 * 7th a top-up, the rest other movements; the other organisations' rows are top-ups and other
 * movements. All are paid.
 */
async function seedLedger(database: Database, ownerId: string) {
  await database.db.execute(sql`
    INSERT INTO ledger_transaction
      (organization_id, type, status, amount_cents, payment_amount_cents, invoice_type, billing_cycle, notes, created_at, paid_at)
    SELECT organization_id, kind, 'paid', amount, amount,
      CASE WHEN kind = 'service_charge' THEN 'mau_based' END,
      CASE WHEN kind = 'service_charge' THEN to_char(at - interval '1 day', 'YYYY-MM') END,
      CASE WHEN kind = 'other' THEN 'Adjustment ' || g ELSE '' END,
      at, at
    FROM (
      SELECT g, k, at,
        CASE WHEN k = 0 THEN ${ownerId} ELSE ${benchOrganizationId(sql`1 + (g * ${OTHER_ROWS_PER_OWNER_ROW} + k) % ${ORGANIZATIONS}`)} END
          AS organization_id,
        CASE
          WHEN k = 0 AND g > 0 AND date_trunc('month', at) > at - interval '25 minutes' THEN 'service_charge'
          WHEN (g + k) % 7 = 0 THEN 'topup'
          ELSE 'other'
        END AS kind,
        CASE
          WHEN k = 0 AND g > 0 AND date_trunc('month', at) > at - interval '25 minutes' THEN 27000
          ELSE 100 + (g + k) % 50000
        END AS amount
      FROM generate_series(0, ${TRANSACTIONS - 1}) AS g,
        generate_series(0, ${OTHER_ROWS_PER_OWNER_ROW}) AS k,
        LATERAL (SELECT timestamptz '2021-11-01 00:00:00+00' + g * interval '25 minutes' + k * interval '1 second' AS at) AS t
    ) AS rows
    ORDER BY g, k`);
  await database.db.execute(sql`
    INSERT INTO invoice_line
      (organization_id, transaction_id, application_id, description, product_name, quantity, unit_price_micro_usd, amount_cents)
    SELECT t.organization_id, t.id, a.id, a.name, ${`${PRODUCT_NAME} Advance`}, 1000, 90000, 9000
    FROM ledger_transaction t
    JOIN application a ON a.organization_id = t.organization_id
    WHERE t.organization_id = ${ownerId} AND t.type = 'service_charge'
    ORDER BY t.id, a.created_at`);
}

/** The id of the benchmark's organisation number `g` (1 to ORGANIZATIONS), as SQL. */
function benchOrganizationId(g: SQL) {
  return sql`md5('bench-org-' || ${g})::uuid::text`;
}

/**
 * ORGANIZATIONS organisations that completed setup, each with APPLICATIONS_PER_ORGANIZATION active
 * applications created this year and their usage of `cycle` and the month before. Every 10th is
 * flat-rate (a licence, a support plan, a taxed country); of the PAYG ones every 20th has no balance
 * (its charge stays due) and every 9th is in its trial during the cycle.
 */
async function seedBillingRun(database: Database, cycle: string) {
  const cycleStart = `${cycle}-01 00:00:00+00`;
  const organizationId = benchOrganizationId(sql`g`);
  await database.db.execute(sql`
    INSERT INTO organization
      (id, name, email, contract_type, is_filled, trial_end_at, billing_country, balance_cents,
       license_mau, license_fee_cents, contract_plan, support_plan, support_plan_fee_cents)
    SELECT ${organizationId}, 'Bench organisation ' || g, 'billing@bench-' || g || '.example.com',
      CASE WHEN g % 10 = 0 THEN 'flat_rate' ELSE 'payg' END,
      true,
      CASE WHEN g % 9 = 2 THEN ${cycleStart}::timestamptz + interval '14 days' END,
      (ARRAY['US', 'DE', 'JP', 'GB', 'SG'])[1 + g % 5],
      CASE WHEN g % 20 = 1 THEN 0 ELSE 1000000 END,
      CASE WHEN g % 10 = 0 THEN 10000 ELSE 0 END,
      CASE WHEN g % 10 = 0 THEN 50000 ELSE 0 END,
      (ARRAY['basic', 'advance', 'max'])[1 + g % 3],
      CASE WHEN g % 10 = 0 THEN 'Standard' ELSE '' END,
      CASE WHEN g % 10 = 0 THEN 20000 ELSE 0 END
    FROM generate_series(1, ${ORGANIZATIONS}) AS g`);
  await database.db.execute(sql`
    INSERT INTO application (id, organization_id, name, plan, region, state, network_id, console_url, created_at)
    SELECT md5('bench-app-' || g || '-' || a)::uuid::text, ${organizationId}, 'App ' || g || '-' || a,
      (${sql.raw(`ARRAY[${PLAN_KEYS.map((key) => `'${key}'`).join(', ')}]`)})[1 + (g + a) % ${PLAN_KEYS.length}],
      (${sql.raw(`ARRAY[${REGION_KEYS.map((key) => `'${key}'`).join(', ')}]`)})[1 + (g + a) % ${REGION_KEYS.length}],
      'active', 'net_bench_' || g || '_' || a, 'http://localhost/regions/eu/console/net_bench_' || g || '_' || a,
      timestamptz '2026-01-01 00:00:00+00' + g * interval '10 minutes' + a * interval '1 minute'
    FROM generate_series(1, ${ORGANIZATIONS}) AS g, generate_series(1, ${APPLICATIONS_PER_ORGANIZATION}) AS a`);
  const previous = previousCycle(new Date(`${cycle}-01T00:00:00Z`));
  await database.db.execute(sql`
    INSERT INTO application_usage (organization_id, application_id, billing_cycle, mau, imported_at)
    SELECT a.organization_id, a.id, c.cycle, abs(hashtext(a.id || c.cycle)) % 20000,
      ${cycleStart}::timestamptz + interval '1 month 2 hours'
    FROM application a, (VALUES (${cycle}), (${previous})) AS c(cycle)
    WHERE a.name LIKE 'App %'`);
}

interface Row {
  label: string;
  durations: number[];
  /** The p95's target, ms. */
  targetMs: number;
}

interface RunFigures {
  seconds: number;
  result: BillingRunResult;
}

interface Measurement {
  databaseKind: DatabaseKind;
  rows: Row[];
  run: RunFigures;
  rerun: RunFigures;
  seedSeconds: number;
}

async function timedRun(run: () => Promise<BillingRunResult>): Promise<RunFigures> {
  const started = performance.now();
  const result = await run();
  return { seconds: (performance.now() - started) / 1000, result };
}

async function measure(serverUrl: string | undefined): Promise<Measurement> {
  return withFreshPortal(serverUrl, async ({ databaseKind, database, base }) => {
    const email = 'bench-billing@acme.io';
    const cookie = await signedInOwner(base, email);
    const organizationId = await organizationIdOf(database, email);
    const now = new Date();
    const cycle = previousCycle(now);

    console.error(`${databaseKind}: seeding ${TRANSACTIONS} transactions and ${ORGANIZATIONS} organisations`);
    const seedStarted = performance.now();
    await seedApplications(database, email, APPLICATIONS_PER_ORGANIZATION);
    await seedBillingRun(database, cycle);
    await seedLedger(database, organizationId);
    // As after a day of autovacuum: statistics and the visibility map are up to date.
    await database.db.execute(sql`VACUUM ANALYZE`);
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const { call } = client(base);
    const first = (await (await call('GET', '/api/v1/transactions', undefined, cookie)).json()) as {
      total: number;
    };
    if (first.total !== TRANSACTIONS)
      throw new Error(`the owner has ${first.total} transactions, not ${TRANSACTIONS}`);
    const pages = Math.ceil(TRANSACTIONS / TRANSACTION_PAGE_SIZE);
    /** Page i of CALLS: the first, the last and evenly between. */
    const spreadPage = (i: number) => 1 + Math.round((i * (pages - 1)) / (CALLS - 1));
    const rows: Row[] = [];
    for (const sortBy of ['lastCreated', 'firstCreated'] as const) {
      console.error(`${databaseKind}: GET /api/v1/transactions?sortBy=${sortBy}`);
      rows.push({
        label: `GET /api/v1/transactions?sortBy=${sortBy}, page 1`,
        durations: await sequentialMs(CALLS, WARM_UPS, () =>
          call('GET', `/api/v1/transactions?page=1&sortBy=${sortBy}`, undefined, cookie).then((r) =>
            r.json(),
          ),
        ),
        targetMs: TARGETS.callP95Ms,
      });
      let i = 0;
      rows.push({
        label: `GET /api/v1/transactions?sortBy=${sortBy}, pages 1 to ${pages} evenly`,
        durations: await sequentialMs(CALLS, WARM_UPS, async () => {
          const page = spreadPage(i++ % CALLS);
          return call('GET', `/api/v1/transactions?page=${page}&sortBy=${sortBy}`, undefined, cookie).then(
            (r) => r.json(),
          );
        }),
        targetMs: TARGETS.callP95Ms,
      });
    }

    // Every prefix of the owner's latest padded id, from one digit (all of the owner's transactions)
    // to the whole id (one), and a term matching none.
    const [latest] = await database.db
      .select({ paddedId: schema.ledgerTransaction.paddedId })
      .from(schema.ledgerTransaction)
      .where(eq(schema.ledgerTransaction.organizationId, organizationId))
      .orderBy(desc(schema.ledgerTransaction.id))
      .limit(1);
    const latestId = latest?.paddedId ?? '';
    const terms = [...Array.from(latestId, (_, i) => latestId.slice(0, i + 1)), '9'];
    let t = 0;
    console.error(`${databaseKind}: POST /api/v1/transactions/search`);
    rows.push({
      label: `POST /api/v1/transactions/search, terms ${terms.join(', ')} in turn`,
      durations: await sequentialMs(CALLS, WARM_UPS, () =>
        call('POST', '/api/v1/transactions/search', { term: terms[t++ % terms.length] }, cookie).then((r) =>
          r.json(),
        ),
      ),
      targetMs: TARGETS.callP95Ms,
    });

    // The latest invoices, each opened through the link the report endpoint signs for it.
    const invoices = await database.db
      .select({ id: schema.ledgerTransaction.id })
      .from(schema.ledgerTransaction)
      .where(
        and(
          eq(schema.ledgerTransaction.organizationId, organizationId),
          eq(schema.ledgerTransaction.type, 'service_charge'),
        ),
      )
      .orderBy(desc(schema.ledgerTransaction.id))
      .limit(5);
    const links: string[] = [];
    for (const { id } of invoices) {
      const report = (await (
        await call('GET', `/api/v1/transactions/${id}/report`, undefined, cookie)
      ).json()) as {
        signedUrl: string;
      };
      const url = new URL(report.signedUrl);
      links.push(`${url.pathname}${url.search}`);
    }
    let p = 0;
    console.error(`${databaseKind}: GET /api/v1/invoices/{id}.pdf`);
    rows.push({
      label: 'GET /api/v1/invoices/{id}.pdf (signed link), 3 lines',
      durations: await sequentialMs(PDF_CALLS, WARM_UPS, async () => {
        const response = await call('GET', links[p++ % links.length]!);
        return response.arrayBuffer();
      }),
      targetMs: TARGETS.pdfP95Ms,
    });

    const billing = monthlyRunService({ db: database.db, productName: PRODUCT_NAME });
    console.error(`${databaseKind}: runMonthlyBilling for ${cycle}`);
    const run = await timedRun(() => billing.runMonthlyBilling({ cycle, now }));
    // The unique key on organisation, cycle and type keeps it to one invoice each.
    if (run.result.failed.length > 0 || run.result.billed.length !== ORGANIZATIONS) {
      throw new Error(
        `the run billed ${run.result.billed.length} of ${ORGANIZATIONS} organisations, ` +
          `failed: ${JSON.stringify(run.result.failed.slice(0, 3))}`,
      );
    }
    console.error(`${databaseKind}: runMonthlyBilling for ${cycle} again`);
    const rerun = await timedRun(() => billing.runMonthlyBilling({ cycle, now }));
    if (rerun.result.billed.length > 0 || rerun.result.alreadyBilled.length !== ORGANIZATIONS) {
      throw new Error(`the second run billed ${rerun.result.billed.length} organisations again`);
    }
    return { databaseKind, rows, run, rerun, seedSeconds };
  });
}

function report(m: Measurement, loadBefore: number, loadAfter: number) {
  const cpus = os.cpus();
  console.log(
    `\nBilling, ${m.databaseKind}, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
      `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, load average ${loadBefore.toFixed(2)} before the run, ` +
      `${loadAfter.toFixed(2)} after; seeding took ${m.seedSeconds.toFixed(1)} s\n`,
  );
  console.log('| call | calls | p50 ms | p95 ms | max ms |');
  console.log('|---|---|---|---|---|');
  for (const row of m.rows) {
    const cells = [50, 95, 100].map((q) => percentile(row.durations, q).toFixed(1));
    console.log(`| ${row.label} | ${row.durations.length} | ${cells.join(' | ')} |`);
  }
  const { run, rerun } = m;
  console.log(
    `\nrunMonthlyBilling over ${ORGANIZATIONS} organisations × ${APPLICATIONS_PER_ORGANIZATION} applications: ` +
      `${run.seconds.toFixed(1)} s (${run.result.billed.length} billed, ${run.result.becameInactive.length} made inactive); ` +
      `again, all already billed: ${rerun.seconds.toFixed(1)} s`,
  );

  const onPostgres = m.databaseKind === 'PostgreSQL';
  const checks = m.rows.map((row): [string, boolean] => {
    const p95 = percentile(row.durations, 95);
    return [`${row.label}: p95 ${p95.toFixed(1)} ms ≤ ${row.targetMs} ms`, p95 <= row.targetMs];
  });
  checks.push([
    `runMonthlyBilling: ${run.seconds.toFixed(1)} s ≤ ${TARGETS.runSeconds} s`,
    run.seconds <= TARGETS.runSeconds,
  ]);
  console.log('');
  for (const [label, met] of checks) {
    // The targets are for a PostgreSQL deployment; the embedded database serves one development machine.
    console.log(`${onPostgres ? (met ? 'met    ' : 'MISSED ') : 'PGlite '}${label}`);
  }
  if (!onPostgres) console.log('(the targets are for PostgreSQL: set DATABASE_URL)');
  if (onPostgres && checks.some(([, met]) => !met)) process.exitCode = 1;
}

async function main() {
  const loadBefore = os.loadavg()[0] ?? 0;
  if (loadBefore > 0.5)
    console.error(`warning: load average is ${loadBefore.toFixed(2)}; figures will be low`);
  const measurement = await measure(process.env.DATABASE_URL);
  report(measurement, loadBefore, os.loadavg()[0] ?? 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
