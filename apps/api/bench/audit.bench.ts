/**
 * `npm run bench:audit`: the organisation audit log at a million entries — its pages through the
 * API, its CSV export, and what recording an entry adds to a change.
 *
 * On PostgreSQL only: a fresh database on the server of DATABASE_URL (default the local server,
 * postgres://postgres@127.0.0.1:5432), dropped afterwards; the portal runs in this process, listening
 * on a loopback port, and is called over HTTP as the web app calls it. One owner signs up through the
 * API; the entries are written straight into the table with one INSERT … SELECT over generate_series
 * (what is measured is reading and recording, not how the rows came to be):
 *
 * - the owner's organisation: ENTRIES entries over the year up to now, in time order as they would
 *   arrive, with a realistic spread: half sign-ins (some failed), then applications, members, API
 *   keys, billing, SSO, two-factor, account and operator actions; 25 members, the system and operators
 *   as actors; 40 applications, 120 API keys, 30 members and one transaction per charge as targets;
 * - OTHER_ENTRIES entries of 50 other organisations, interleaved in time with the owner's.
 *
 * Measured, one call at a time with the owner's session, CALLS calls each after WARM_UPS: the first
 * page; filtered first pages (a group, a member as actor, a target, a two-month range in the middle
 * of the year, and the rarer filters: operators as actors, a target type alone); pages deep in the
 * log reached by the cursor the list gives (cursors of entries spread over the whole year). Then
 * the export of all the owner's entries, fetched by curl (a client in a process of its own) as a
 * browser downloads it (compressed) and uncompressed: rows/s and the growth of this process's
 * resident memory over the export (sampled every 50 ms), which shows that it streams. Last, the cost of recording: a member's display-name change in its
 * transaction with its audit entry and without, alternately, RECORDING_CHANGES times each.
 *
 * Targets: first and filtered pages p95 ≤ 50 ms; the export ≥ 50,000 rows/s; recording adds ≤ 2 ms
 * at p95.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import { AUDIT_ACTIONS, type AuditAction, type AuditTargetType } from '@portal/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { record } from '../src/modules/audit-log/audit-log.record.ts';
import { updateMember } from '../src/modules/members/members.repository.ts';
import { client, organizationIdOf, percentile, sequentialMs, signedInOwner, withFreshPortal } from './bench-support.ts';

const ENTRIES = 1_000_000;
const OTHER_ENTRIES = 200_000;
const OTHER_ORGANIZATIONS = 50;
const MEMBERS = 25;
const APPLICATIONS = 40;
const API_KEYS = 120;
const CALLS = 120;
const WARM_UPS = 10;
const RECORDING_CHANGES = 500;
const TARGETS = { pageP95Ms: 50, exportRowsPerSecond: 50_000, recordingAddedP95Ms: 2 };
const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432';

/**
 * The share of each action in a hundred entries: what an organisation's log looks like, mostly
 * sign-ins, then the day-to-day work on applications and keys, rarely security and operators.
 */
const ACTION_WEIGHTS: Partial<Record<AuditAction, number>> = {
  'sign_in.succeeded': 42,
  'sign_in.failed': 6,
  'sign_in.signed_out': 6,
  'application.renamed': 6,
  'application.created': 3,
  'application.deactivated': 1,
  'application.reactivated': 1,
  'api_key.created': 4,
  'api_key.rotated': 4,
  'api_key.revoked': 2,
  'member.invited': 4,
  'member.joined': 3,
  'member.role_changed': 2,
  'member.display_name_changed': 2,
  'member.removed': 1,
  'billing.top_up': 3,
  'billing.invoice_paid': 3,
  'billing.card_added': 1,
  'sso.settings_changed': 1,
  'two_factor.enrolled': 2,
  'two_factor.requirement_changed': 1,
  'account.made_inactive': 1,
  'operator.credit_granted': 1,
};

const TARGET_OF_GROUP: Record<string, AuditTargetType> = {
  sign_in: 'member',
  member: 'member',
  application: 'application',
  api_key: 'api_key',
  billing: 'transaction',
  sso: 'sso_connection',
  two_factor: 'member',
  account: 'organization',
  operator: 'organization',
};

/** The action, its group and its target's type for each percent, as SQL arrays indexed 1 to 100. */
function actionSlots() {
  const slots = Object.entries(ACTION_WEIGHTS).flatMap(([action, weight]) => Array<string>(weight).fill(action));
  if (slots.length !== 100) throw new Error(`the action weights add up to ${slots.length}, not 100`);
  for (const action of slots) if (!(AUDIT_ACTIONS as readonly string[]).includes(action)) throw new Error(action);
  const groups = slots.map((action) => action.slice(0, action.indexOf('.')));
  const array = (values: string[]) => sql.raw(`ARRAY[${values.map((value) => `'${value}'`).join(', ')}]`);
  return {
    actions: array(slots),
    groups: array(groups),
    targetTypes: array(groups.map((group) => TARGET_OF_GROUP[group]!)),
  };
}

/**
 * ENTRIES entries of the owner's organisation and OTHER_ENTRIES of OTHER_ORGANIZATIONS others, one
 * INSERT … SELECT over generate_series `g`: every sixth entry another organisation's, all spread
 * evenly over the year before now in g's order (the physical order of a log written as things
 * happen, the organisations interleaved). Actors and targets come from a hash of g, so that they do
 * not follow the actions.
 */
async function insertEntries(database: Database, ownerId: string) {
  const every = (ENTRIES + OTHER_ENTRIES) / OTHER_ENTRIES;
  if (!Number.isInteger(every)) throw new Error('OTHER_ENTRIES must divide ENTRIES + OTHER_ENTRIES');
  const otherOrganization = sql`md5('bench-audit-org-' || (g / ${every}) % ${OTHER_ORGANIZATIONS})::uuid::text`;
  await database.db.execute(sql`
    INSERT INTO organization (id, name, email)
    SELECT DISTINCT ${otherOrganization}, 'Bench organisation', 'audit@bench.example.com'
    FROM generate_series(0, ${OTHER_ORGANIZATIONS * every - 1}) AS g`);
  const { actions, groups, targetTypes } = actionSlots();
  const count = ENTRIES + OTHER_ENTRIES;
  await database.db.execute(sql`
    INSERT INTO audit_log_entry
      (organization_id, created_at, actor_kind, actor_member_id, actor_email, action, action_group,
       target_type, target_id, target_name, ip, user_agent, request_id, changes)
    SELECT organization, at, actor.kind,
      CASE WHEN actor.kind = 'member' THEN 'bench-member-' || actor.n END,
      CASE WHEN actor.kind = 'member' THEN 'member' || actor.n || '@bench-audit.example.com' END,
      a.action, a.action_group, a.target_type,
      target.id, target.name,
      CASE WHEN actor.kind <> 'system' THEN '198.51.100.' || (h % 250) END,
      CASE WHEN actor.kind = 'member' THEN
        (ARRAY['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Safari/605.1.15',
               'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36',
               'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0'])[1 + h % 3]
      END,
      CASE WHEN actor.kind <> 'system' THEN md5('request-' || g) END,
      CASE a.action_group
        WHEN 'application' THEN jsonb_build_object('name', jsonb_build_object('before', 'App ' || g, 'after', 'App ' || g || ' (renamed)'))
        WHEN 'member' THEN jsonb_build_object('role', jsonb_build_object('before', 'portal.developer', 'after', 'portal.admin'))
        WHEN 'billing' THEN jsonb_build_object('amountCents', jsonb_build_object('after', 100 + h % 50000))
        ELSE '{}'::jsonb
      END
    FROM generate_series(1, ${count}) AS g,
      LATERAL (SELECT abs(hashint4(g)) AS h,
        CASE WHEN g % ${every} = 0 THEN ${otherOrganization} ELSE ${ownerId} END AS organization,
        now() - interval '365 days' + (g::float8 / ${count}) * interval '365 days' AS at) AS base,
      LATERAL (SELECT (${actions})[1 + h % 100] AS action, (${groups})[1 + h % 100] AS action_group,
        (${targetTypes})[1 + h % 100] AS target_type) AS a,
      LATERAL (SELECT
        CASE WHEN a.action_group = 'operator' OR (a.action_group <> 'sign_in' AND h % 50 = 0) THEN
          CASE WHEN a.action_group = 'operator' THEN 'operator' ELSE 'system' END
        ELSE 'member' END AS kind,
        (h / 100) % ${MEMBERS} AS n) AS actor,
      LATERAL (SELECT
        CASE a.target_type
          WHEN 'member' THEN 'bench-member-' || (h / 7) % 30
          WHEN 'application' THEN 'bench-app-' || (h / 7) % ${APPLICATIONS}
          WHEN 'api_key' THEN 'bench-key-' || (h / 7) % ${API_KEYS}
          WHEN 'transaction' THEN 'tx-' || g
          WHEN 'sso_connection' THEN 'bench-sso'
          ELSE organization
        END AS id,
        CASE a.target_type
          WHEN 'member' THEN 'member' || (h / 7) % 30 || '@bench-audit.example.com'
          WHEN 'application' THEN 'Bench app ' || (h / 7) % ${APPLICATIONS}
          WHEN 'api_key' THEN 'Key ' || (h / 7) % ${API_KEYS}
          WHEN 'transaction' THEN 'Transaction ' || g
          ELSE 'Bench organisation'
        END AS name) AS target
    ORDER BY g`);
}

interface Row {
  label: string;
  durations: number[];
}

interface ExportFigures {
  label: string;
  rows: number;
  seconds: number;
  /** Peak resident memory of this process during the export less before it, MB. */
  rssGrowthMb: number;
}

/**
 * The whole export fetched by curl, a process of its own as a browser is (the server's core does not
 * also read and decompress it), its lines counted by `wc -l`; with this process's peak RSS
 * meanwhile, which is now the server's alone. `compressed`: curl asks for what it can decompress
 * (gzip, deflate, br, zstd, as browsers do) and decompresses it.
 */
async function measureExport(base: string, cookie: string, compressed: boolean, label: string): Promise<ExportFigures> {
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  try {
    const curl = spawn(
      'sh',
      ['-c', `curl --silent --show-error --fail ${compressed ? '--compressed' : ''} -H "cookie: $COOKIE" "$URL" | wc -l`],
      { env: { ...process.env, COOKIE: cookie, URL: `${base}/api/v1/audit-log/export` }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    curl.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    const [code] = (await once(curl, 'close')) as [number | null];
    if (code !== 0) throw new Error(`curl | wc ended with ${code}`);
    const seconds = (performance.now() - started) / 1000;
    // The bench's entries have no line break inside a field: a line is an entry (or the header).
    return { label, rows: Number(output.trim()) - 1, seconds, rssGrowthMb: (rssPeak - rssBefore) / 1024 / 1024 };
  } finally {
    clearInterval(sampler);
  }
}

interface RecordingFigures {
  without: number[];
  withEntry: number[];
}

/**
 * The owner's display-name change in its own transaction, without and with its audit entry as the
 * members service records it, alternately, so both meet the same load.
 */
async function measureRecording(database: Database, organizationId: string, ownerEmail: string): Promise<RecordingFigures> {
  const [owner] = await database.db
    .select({ id: schema.member.id })
    .from(schema.member)
    .innerJoin(schema.user, eq(schema.user.id, schema.member.userId))
    .where(and(eq(schema.member.organizationId, organizationId), eq(schema.user.email, ownerEmail)));
  if (!owner) throw new Error(`${ownerEmail} is not a member`);
  const change = (index: number, withEntry: boolean) =>
    database.db.transaction(async (tx) => {
      const displayName = `Bench owner ${index}`;
      await updateMember(tx, organizationId, owner.id, { displayName });
      if (withEntry)
        await record(tx, {
          organizationId,
          action: 'member.display_name_changed',
          target: { type: 'member', id: owner.id, name: ownerEmail },
          changes: { displayName: { before: `Bench owner ${index - 1}`, after: displayName } },
          context: {
            actor: { kind: 'member', memberId: owner.id, email: ownerEmail },
            origin: { ip: '127.0.0.1', userAgent: 'bench', requestId: crypto.randomUUID() },
          },
        });
    });
  const figures: RecordingFigures = { without: [], withEntry: [] };
  for (let index = 0; index < RECORDING_CHANGES + WARM_UPS; index += 1) {
    for (const withEntry of [false, true]) {
      const started = performance.now();
      await change(2 * index + Number(withEntry), withEntry);
      if (index >= WARM_UPS) (withEntry ? figures.withEntry : figures.without).push(performance.now() - started);
    }
  }
  return figures;
}

/** The list's cursor of the entry at each of `count` depths spread over the owner's log. */
async function deepCursors(database: Database, organizationId: string, count: number): Promise<string[]> {
  const rows = await database.query<{ created_ms: string; id: string }>(
    {
      name: 'bench-audit-deep-cursors',
      text: `SELECT (extract(epoch FROM created_at) * 1000)::bigint AS created_ms, id
        FROM (
          SELECT created_at, id, row_number() OVER (ORDER BY created_at DESC, id DESC) AS position
          FROM audit_log_entry WHERE organization_id = $1
        ) AS ranked
        WHERE position % $2 = 0`,
    },
    [organizationId, Math.floor(ENTRIES / count)],
  );
  return rows.map((row) => `${row.created_ms}-${row.id}`);
}

async function measure(serverUrl: string) {
  return withFreshPortal(serverUrl, async ({ database, base }) => {
    const email = 'bench-audit@acme.io';
    const cookie = await signedInOwner(base, email);
    const organizationId = await organizationIdOf(database, email);

    console.error(`seeding ${ENTRIES} entries and ${OTHER_ENTRIES} of other organisations`);
    const seedStarted = performance.now();
    await insertEntries(database, organizationId);
    // As after a day of autovacuum: statistics and the visibility map are up to date.
    await database.db.execute(sql`VACUUM ANALYZE audit_log_entry`);
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const { call } = client(base);
    const page = (query: string) => () =>
      call('GET', `/api/v1/audit-log?limit=50${query}`, undefined, cookie).then((r) => r.json());
    const day = 24 * 60 * 60 * 1000;
    const middle = Date.now() - 182 * day;
    const range = `&from=${new Date(middle - 30 * day).toISOString()}&to=${new Date(middle + 30 * day).toISOString()}`;
    const pages: [string, string][] = [
      ['first page', ''],
      ['group: application', '&actionGroup=application'],
      ['action: api_key.rotated', '&action=api_key.rotated'],
      ['member as actor', '&actorMemberId=bench-member-3'],
      ['target: one application', '&targetType=application&targetId=bench-app-7'],
      ['two months in the middle of the year', range],
      ['group and two months', `&actionGroup=api_key${range}`],
      ['operators as actors (1 %)', '&actorKind=operator'],
      ['target type alone: API keys', '&targetType=api_key'],
    ];
    const rows: Row[] = [];
    for (const [label, query] of pages) {
      console.error(`GET /api/v1/audit-log, ${label}`);
      const first = (await page(query)()) as { results: unknown[] };
      if (first.results.length !== 50) throw new Error(`${label}: ${first.results.length} entries, not 50`);
      rows.push({ label, durations: await sequentialMs(CALLS, WARM_UPS, page(query)) });
    }
    const cursors = await deepCursors(database, organizationId, CALLS);
    let c = 0;
    console.error('GET /api/v1/audit-log, deep pages by cursor');
    rows.push({
      label: `pages by cursor, ${cursors.length} depths from ${Math.floor(ENTRIES / CALLS)} to ${ENTRIES} entries in`,
      durations: await sequentialMs(CALLS, WARM_UPS, () => {
        const cursor = cursors[c++ % cursors.length]!;
        return page(`&cursor=${cursor}`)();
      }),
    });

    // The owner's entries as the export must give them: the bench's, and what signing up recorded.
    const [counted] = await database.query<{ entries: number }>(
      { name: 'bench-audit-count', text: 'SELECT count(*)::int AS entries FROM audit_log_entry WHERE organization_id = $1' },
      [organizationId],
    );
    const entries = counted?.entries ?? 0;
    console.error('GET /api/v1/audit-log/export');
    const exports = [
      await measureExport(base, cookie, true, 'as a browser downloads it (gzip, fastest level)'),
      await measureExport(base, cookie, false, 'uncompressed'),
    ];
    for (const figures of exports)
      if (figures.rows !== entries) throw new Error(`the export gave ${figures.rows} rows, not ${entries}`);

    console.error('recording: a display-name change with and without its entry');
    const recording = await measureRecording(database, organizationId, email);
    return { rows, exports, recording, seedSeconds };
  });
}

function report(m: Awaited<ReturnType<typeof measure>>, loadBefore: number, loadAfter: number) {
  const cpus = os.cpus();
  console.log(
    `\nAudit log, PostgreSQL, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
      `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, load average ${loadBefore.toFixed(2)} before the run, ` +
      `${loadAfter.toFixed(2)} after; seeding ${ENTRIES + OTHER_ENTRIES} entries took ${m.seedSeconds.toFixed(1)} s\n`,
  );
  console.log('| GET /api/v1/audit-log?limit=50, … | calls | p50 ms | p95 ms | max ms |');
  console.log('|---|---|---|---|---|');
  for (const row of m.rows) {
    const cells = [50, 95, 100].map((q) => percentile(row.durations, q).toFixed(1));
    console.log(`| ${row.label} | ${row.durations.length} | ${cells.join(' | ')} |`);
  }
  console.log('\n| export of every entry | rows | seconds | rows/s | peak RSS growth MB |');
  console.log('|---|---|---|---|---|');
  for (const e of m.exports) {
    console.log(
      `| ${e.label} | ${e.rows} | ${e.seconds.toFixed(1)} | ${Math.round(e.rows / e.seconds)} | ${e.rssGrowthMb.toFixed(0)} |`,
    );
  }
  const { without, withEntry } = m.recording;
  const [p50Without, p95Without] = [50, 95].map((q) => percentile(without, q));
  const [p50With, p95With] = [50, 95].map((q) => percentile(withEntry, q));
  const added = p95With! - p95Without!;
  console.log(
    `\nA display-name change in its transaction, ${without.length} times each: without its entry ` +
      `p50 ${p50Without!.toFixed(2)} ms, p95 ${p95Without!.toFixed(2)} ms; with it p50 ${p50With!.toFixed(2)} ms, ` +
      `p95 ${p95With!.toFixed(2)} ms; added at p95 ${added.toFixed(2)} ms`,
  );

  const checks: [string, boolean][] = m.rows.map((row) => {
    const p95 = percentile(row.durations, 95);
    return [`${row.label}: p95 ${p95.toFixed(1)} ms ≤ ${TARGETS.pageP95Ms} ms`, p95 <= TARGETS.pageP95Ms];
  });
  for (const e of m.exports) {
    const rate = e.rows / e.seconds;
    checks.push([
      `export ${e.label}: ${Math.round(rate)} rows/s ≥ ${TARGETS.exportRowsPerSecond}`,
      rate >= TARGETS.exportRowsPerSecond,
    ]);
  }
  checks.push([
    `recording adds ${added.toFixed(2)} ms at p95 ≤ ${TARGETS.recordingAddedP95Ms} ms`,
    added <= TARGETS.recordingAddedP95Ms,
  ]);
  console.log('');
  for (const [label, met] of checks) console.log(`${met ? 'met    ' : 'MISSED '}${label}`);
  if (checks.some(([, met]) => !met)) process.exitCode = 1;
}

async function main() {
  const loadBefore = os.loadavg()[0] ?? 0;
  if (loadBefore > 0.5) console.error(`warning: load average is ${loadBefore.toFixed(2)}; figures will be low`);
  const measurement = await measure(process.env.DATABASE_URL ?? DEFAULT_SERVER);
  report(measurement, loadBefore, os.loadavg()[0] ?? 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
