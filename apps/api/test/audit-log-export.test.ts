import { once } from 'node:events';
import { Readable } from 'node:stream';
import type { AuditLogEntry, ListAuditLogResponse } from '@portal/contracts';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import {
  AUDIT_LOG_EXPORT_BATCH,
  auditLogCsv,
  csvLine,
  readAuditLogCsvLines,
} from '../src/modules/audit-log/audit-log.export.ts';
import {
  listAuditLogEntries,
  type NewAuditLogEntryRow,
} from '../src/modules/audit-log/audit-log.repository.ts';
import {
  expectApiError,
  invite,
  joinByInvitation,
  jsonRequest,
  setUpOrganization,
  useTestApp,
} from './helper.ts';

/*
 * GET /api/v1/audit-log/export: the same entries as the list for the same filters, in the same
 * order, as CSV read in batches (more entries here than two batches hold); fields quoted as
 * RFC 4180 says and kept from running as spreadsheet formulas; only the caller's organisation's.
 */
const t = useTestApp();

const HEADER =
  'time,actor_kind,actor_member_id,actor_email,action,action_group,target_type,target_id,target_name,ip,user_agent,request_id,changes';
/** Entries written straight into the table: more than two batches, so the export reads three. */
const BULK = 2 * AUDIT_LOG_EXPORT_BATCH + 123;
/** Bulk entries share their time in runs of this many, so batches end inside a run of equal times. */
const SAME_TIME_RUN = 4_000;

/** Target names that need quoting or would run as formulas, each in an entry of its own. */
const AWKWARD_NAMES = {
  comma: 'Acme, Inc.',
  quotes: 'The "best" app',
  newline: 'two\nlines',
  crlf: 'two\r\nlines',
  formula: '=HYPERLINK("http://evil.example","click")',
  plus: '+1 (555) 0100',
  minus: '-2+3',
  at: '@SUM(A1:A9)',
  tab: '\tindented',
  carriageReturn: '\rreturn',
};

let owner: string;
let organizationId: string;
let developer: string;
let other: string;
let otherEmail: string;

/** Every entry the list gives for `query`, following its cursors. */
async function listed(cookie: string, query: string): Promise<AuditLogEntry[]> {
  const entries: AuditLogEntry[] = [];
  let cursor: string | null = null;
  do {
    const url = `/api/v1/audit-log?${query}&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await t.app.inject(jsonRequest('GET', url, undefined, cookie));
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as ListAuditLogResponse;
    entries.push(...page.results);
    cursor = page.nextCursor;
  } while (cursor);
  return entries;
}

async function exported(cookie: string, query = '') {
  const response = await t.app.inject(
    jsonRequest('GET', `/api/v1/audit-log/export?${query}`, undefined, cookie),
  );
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return response;
}

/** RFC 4180 records: fields split on commas outside quotes, `""` inside quotes one quote, CRLF between records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      records.push([...fields, field]);
      fields = [];
      field = '';
      i += 1;
    } else field += char;
  }
  expect(field === '' && fields.length === 0, 'the file ends with a complete record').toBe(true);
  return records;
}

/** The records after the byte order mark and the header, which must be there. */
function entriesOf(body: string): string[][] {
  expect(body.startsWith('\uFEFF'), 'a UTF-8 byte order mark').toBe(true);
  const [header, ...records] = parseCsv(body.slice(1));
  expect(header).toEqual(HEADER.split(','));
  return records;
}

/** What a spreadsheet would run as a formula gets an apostrophe, as the export promises. */
const asText = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** The CSV record the export must give for an entry of the list. */
function recordOf(entry: AuditLogEntry): string[] {
  return [
    entry.createdAt,
    entry.actor.kind,
    entry.actor.memberId ?? '',
    entry.actor.email ?? '',
    entry.action,
    entry.actionGroup,
    entry.target.type,
    entry.target.id,
    entry.target.name,
    entry.ip ?? '',
    entry.userAgent ?? '',
    entry.requestId ?? '',
    JSON.stringify(entry.changes),
  ].map(asText);
}

async function expectExportMatchesList(query: string, atLeast: number) {
  const entries = await listed(owner, query);
  expect(entries.length, `the list for ${query}`).toBeGreaterThanOrEqual(atLeast);
  expect(entriesOf((await exported(owner, query)).body), `the export for ${query}`).toEqual(
    entries.map(recordOf),
  );
}

/**
 * BULK entries of the organisation, oldest first from 2025-01-01, in runs of SAME_TIME_RUN at one
 * millisecond (ordered among themselves by id): members, the system and operators acting on
 * members, applications, API keys and transactions, each entry its own target `t-<n>`.
 */
async function insertBulkEntries() {
  await t.database.db.execute(sql`
    INSERT INTO audit_log_entry
      (organization_id, created_at, actor_kind, actor_member_id, actor_email, action, action_group,
       target_type, target_id, target_name, ip, user_agent, request_id, changes)
    SELECT ${organizationId},
      timestamptz '2025-01-01 00:00:00+00' + (g / ${SAME_TIME_RUN}) * interval '1 day',
      kind,
      CASE WHEN kind = 'member' THEN 'member-' || g % 4 END,
      CASE WHEN kind = 'member' THEN 'm' || g % 4 || '@export.example.com' END,
      (ARRAY['member.role_changed', 'application.renamed', 'api_key.rotated', 'billing.top_up'])[1 + g % 4],
      (ARRAY['member', 'application', 'api_key', 'billing'])[1 + g % 4],
      (ARRAY['member', 'application', 'api_key', 'transaction'])[1 + g % 4],
      't-' || g, 'Target ' || g,
      CASE WHEN kind = 'member' THEN '203.0.113.' || g % 250 END,
      CASE WHEN kind = 'member' THEN 'export-test/1.0' END,
      CASE WHEN kind = 'member' THEN 'req-' || g END,
      jsonb_build_object('name', jsonb_build_object('before', 'a' || g, 'after', 'b' || g))
    FROM generate_series(1, ${BULK}) AS g,
      LATERAL (SELECT CASE WHEN g % 5 = 0 THEN 'system' WHEN g % 11 = 0 THEN 'operator' ELSE 'member' END AS kind) AS k
    ORDER BY g`);
}

beforeAll(async () => {
  owner = await setUpOrganization(t.app, 'owner@audit-export.example.com');
  organizationId = (
    (await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, owner))).json() as {
      organizationId: string;
    }
  ).organizationId;
  developer = (await joinByInvitation(t.app, owner, 'dev@audit-export.example.com', 'portal.developer'))
    .cookie;
  for (const email of ['a@audit-export.example.com', 'b@audit-export.example.com'])
    expect((await invite(t.app, owner, [email], 'portal.admin')).statusCode).toBe(201);
  await insertBulkEntries();
  await t.database.db.insert(schema.auditLogEntry).values(
    Object.entries(AWKWARD_NAMES).map(([key, name]) => ({
      organizationId,
      createdAt: new Date('2025-12-01T00:00:00.000Z'),
      actorKind: 'system' as const,
      action: 'application.renamed' as const,
      actionGroup: 'application' as const,
      targetType: 'application' as const,
      targetId: `awkward-${key}`,
      targetName: name,
      changes: { name: { before: name, after: 'plain' } },
    })),
  );
  otherEmail = 'owner@audit-export-other.example.com';
  other = await setUpOrganization(t.app, otherEmail);
  expect(
    (await invite(t.app, other, ['x@audit-export-other.example.com'], 'portal.developer')).statusCode,
  ).toBe(201);
}, 120_000);

describe('the audit log export', () => {
  it("gives the list's entries in the list's order, over several batches", async () => {
    await expectExportMatchesList('', BULK + Object.keys(AWKWARD_NAMES).length + 3);
  }, 120_000);

  it('reads batch after batch below the last entry, across entries of the same time', async () => {
    const body = (await exported(owner)).body;
    const chunks: string[] = [];
    for await (const chunk of auditLogCsv(t.database.db, organizationId, {}, 997)) chunks.push(chunk);
    expect(chunks.join('')).toBe(body);
    const entries = entriesOf(body).length;
    // The header, then one chunk per batch (the last one short).
    expect(chunks).toHaveLength(1 + Math.ceil(entries / 997));
  }, 120_000);

  it("stops reading when its reader goes away, as the route's stream does for a client that leaves", async () => {
    const csv = auditLogCsv(t.database.db, organizationId, {}, 1_000);
    // As the route sends it: Fastify destroys this stream when the client goes away.
    const stream = Readable.from(csv, { objectMode: false });
    const chunks: unknown[] = [];
    stream.on('data', (chunk) => {
      chunks.push(chunk);
      // The header and the first batch; the second is being read.
      if (chunks.length === 2) stream.destroy();
    });
    await once(stream, 'close');
    // The reading ended: the generator is done, and reads nothing more when asked.
    expect(await csv.next()).toEqual({ done: true, value: undefined });
    expect(chunks).toHaveLength(2);
  });

  it('is a CSV download named after the organisation and the day', async () => {
    await t.database.db
      .update(schema.organization)
      .set({ name: 'Ünïted Widgets, Ltd.' })
      .where(eq(schema.organization.id, organizationId));
    const response = await exported(owner, 'actionGroup=member');
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const today = new Date().toISOString().slice(0, 10);
    // The day may turn between the request and this line.
    expect([
      `attachment; filename="audit-log-united-widgets-ltd-${today}.csv"`,
      `attachment; filename="audit-log-united-widgets-ltd-${new Date(Date.now() - 60_000).toISOString().slice(0, 10)}.csv"`,
    ]).toContain(response.headers['content-disposition']);
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it('quotes commas, quotes and line breaks, and keeps formulas from running', async () => {
    const body = (await exported(owner, 'targetType=application&from=2025-12-01T00:00:00Z')).body;
    const byTarget = new Map(entriesOf(body).map((record) => [record[7], record[8]]));
    const expected = {
      comma: 'Acme, Inc.',
      quotes: 'The "best" app',
      newline: 'two\nlines',
      crlf: 'two\r\nlines',
      formula: `'=HYPERLINK("http://evil.example","click")`,
      plus: `'+1 (555) 0100`,
      minus: `'-2+3`,
      at: `'@SUM(A1:A9)`,
      tab: `'\tindented`,
      carriageReturn: `'\rreturn`,
    };
    for (const [key, name] of Object.entries(expected))
      expect(byTarget.get(`awkward-${key}`), key).toBe(name);
    // As written in the file: in quotes where RFC 4180 asks, each quote doubled.
    expect(body).toContain(',"Acme, Inc.",');
    expect(body).toContain(',"The ""best"" app",');
    expect(body).toContain(',"two\nlines",');
    expect(body).toContain(`,"'=HYPERLINK(""http://evil.example"",""click"")",`);
    expect(body).toContain(`,'+1 (555) 0100,`);
    expect(body).toContain(`,"'\rreturn",`);
    expect(body).toContain(`,"{""name"":{""before"":""Acme, Inc."",""after"":""plain""}}"\r\n`);
  });

  it('filters as the list does', async () => {
    await expectExportMatchesList('actionGroup=api_key', 2_000);
    await expectExportMatchesList('action=application.renamed', 2_000);
    await expectExportMatchesList('actorKind=system', 2_000);
    await expectExportMatchesList('actorMemberId=member-2', 1_000);
    await expectExportMatchesList('targetType=transaction&targetId=t-403', 1);
    await expectExportMatchesList('targetType=member', 2_000);
    await expectExportMatchesList(
      `from=${encodeURIComponent('2025-01-02T00:00:00.000Z')}&to=${encodeURIComponent('2025-01-03T00:00:00.000Z')}`,
      SAME_TIME_RUN,
    );
    await expectExportMatchesList('actionGroup=member&actorKind=member&actorMemberId=member-0', 100);
    expect(entriesOf((await exported(owner, 'actionGroup=sso')).body)).toEqual([]);
  }, 120_000);

  it("gives another organisation's member their own entries only", async () => {
    const body = (await exported(other)).body;
    const records = entriesOf(body);
    expect(records.map((record) => record[8])).toContain('x@audit-export-other.example.com');
    for (const [, , , email, , , , targetId] of records) {
      expect(email).toBe(otherEmail);
      expect(targetId).not.toMatch(/^(t|awkward)-/);
    }
    // Naming the owner's targets or members finds nothing either.
    expect(entriesOf((await exported(other, 'targetType=transaction&targetId=t-403')).body)).toEqual([]);
    expect(entriesOf((await exported(other, 'actorMemberId=member-2')).body)).toEqual([]);
  });

  it('gives only the header for an empty log', async () => {
    const cookie = await setUpOrganization(t.app, 'owner@audit-export-empty.example.com');
    const { organizationId: emptyId } = (
      await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie))
    ).json() as { organizationId: string };
    // Whatever setting the organisation up recorded: the log starts empty.
    await t.database.db.delete(schema.auditLogEntry).where(eq(schema.auditLogEntry.organizationId, emptyId));
    expect((await exported(cookie)).body).toBe(`\uFEFF${HEADER}\r\n`);
  });

  it('refuses a developer with 403 and a caller without a session with 401, before any CSV', async () => {
    expectApiError(
      await t.app.inject(jsonRequest('GET', '/api/v1/audit-log/export', undefined, developer)),
      403,
      'FORBIDDEN',
    );
    expectApiError(await t.app.inject(jsonRequest('GET', '/api/v1/audit-log/export')), 401);
  });

  it('is not answered for HEAD, which would read the whole export to throw it away', async () => {
    const response = await t.app.inject({
      ...jsonRequest('GET', '/api/v1/audit-log/export', undefined, owner),
      method: 'HEAD',
    });
    expect(response.statusCode).toBe(404);
  });

  it('refuses a bad filter with 400 JSON naming the field, before any CSV', async () => {
    for (const [query, field] of [
      ['targetId=abc', 'targetType'],
      ['actionGroup=everything', 'actionGroup'],
      ['action=member.exploded', 'action'],
      ['actorKind=robot', 'actorKind'],
      ['actorMemberId=', 'actorMemberId'],
      [`targetType=member&targetId=${'x'.repeat(101)}`, 'targetId'],
      ['from=yesterday', 'from'],
      ['from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'to'],
      ['from=0000-01-01T00:00:00Z', 'from'],
      ['to=9999-12-31T23:59:59-14:00', 'to'],
    ] as const) {
      const response = await t.app.inject(
        jsonRequest('GET', `/api/v1/audit-log/export?${query}`, undefined, owner),
      );
      const body = expectApiError(response, 400);
      expect(body.message, query).toContain(field);
    }
  });
});

/** A new organisation of its own, with no member, whose log is what the test writes into it. */
async function bareOrganization(name: string): Promise<string> {
  const id = crypto.randomUUID();
  await t.database.db.insert(schema.organization).values({ id, name, email: `${name}@audit-export.example.com` });
  return id;
}

/** Entries of `organizationId`, one millisecond apart (from `start`), each its own target `e-<n>`. */
async function insertEntries(
  organizationId: string,
  start: string,
  entries: Partial<Omit<NewAuditLogEntryRow, 'organizationId'>>[],
) {
  await t.database.db.insert(schema.auditLogEntry).values(
    entries.map((entry, index) => ({
      organizationId,
      createdAt: new Date(Date.parse(start) + index),
      actorKind: 'system' as const,
      action: 'application.renamed' as const,
      actionGroup: 'application' as const,
      targetType: 'application' as const,
      targetId: `e-${index}`,
      targetName: `Entry ${index}`,
      changes: {},
      ...entry,
    })),
  );
}

/** What the application writes for the organisation's entries: the reference. */
async function csvLinesOf(organizationId: string) {
  return (await listAuditLogEntries(t.database.db, organizationId, {}, 10_000)).map(csvLine).join('');
}

describe('the lines the database writes', () => {
  it('are byte for byte the lines the application writes, on awkward values', async () => {
    const organizationId = await bareOrganization('lines');
    const names = [
      ...Object.values(AWKWARD_NAMES),
      '',
      '"',
      "'already quoted",
      ' =after a space',
      '-',
      'Zoë, 日本語 🚀',
      'line\u2028separator',
    ];
    await insertEntries(organizationId, '1999-12-31T23:59:59.990Z', [
      ...names.map((targetName) => ({ targetName })),
      {
        actorKind: 'member' as const,
        actorMemberId: '=member',
        actorEmail: '"quoted,local"@example.com',
        ip: '2001:db8::1',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) "quoted", comma',
        requestId: '@request',
      },
      { changes: { name: { before: 'The "best", app', after: 'two\nlines\r\n\t\u0001\\ /é 🚀' } } },
      { changes: { count: { before: 0, after: -12.5 }, ratio: { after: 0.1 }, big: { after: 123456789012345 } } },
      {
        changes: {
          flag: { before: true, after: false },
          gone: { before: 'x', after: null },
          added: { after: 'y' },
          removed: { before: 'z' },
        },
      },
      { changes: { domains: { before: [], after: ['a.example', 'say ", " here', 'b,c', ''] } } },
      {
        changes: {
          zz: { after: 'first in JSON' },
          a: { after: 'shortest' },
          bbb: { after: 3 },
          ключ: { after: 'значение' },
          'k"q': { after: 'quoted key' },
          '=sum': { after: '=1+2' },
          '1a': { after: 'not an index' },
        },
      },
      // What a change field holds beyond before and after, the export leaves out.
      { changes: { extra: { before: 0, after: 1, note: 'dropped' } } as NewAuditLogEntryRow['changes'] },
    ]);
    const lines = await readAuditLogCsvLines(t.database.db, organizationId, {}, 1_000);
    const expected = await csvLinesOf(organizationId);
    expect(lines.exact).toBe(true);
    expect(lines.entries).toBe(names.length + 7);
    expect(lines.text).toBe(expected);
    expect(lines.text).toContain(`,member,'=member,"""quoted,local""@example.com",`);
    expect(lines.text).toContain('"{""domains"":{""before"":[],""after"":[""a.example"",""say \\"", \\"" here"",""b,c"",""""]}}"');
    expect(lines.text).toContain('1999-12-31T23:59:59.990Z,system,');
    expect(lines.text).toContain('2000-01-01T00:00:00.009Z,system,');
  });

  it('leave to the application the values it would write otherwise, and the export stays the same', async () => {
    const organizationId = await bareOrganization('inexact');
    // As jsonb holds them: written straight into the table, or as JavaScript writes them.
    const stored = [
      '{"amount": {"before": 1.50, "after": 2}}',
      '{"big": {"after": 1e21}}',
      '{"id": {"after": 12345678901234567890}}',
      '{"10": {"after": "index key"}, "b": {"after": "y"}}',
      '{"nested": {"after": {"b": 1, "a": [1, "x"]}}}',
      '{"list": {"after": ["a", 1]}}',
      '{"odd": "not an object"}',
    ];
    await insertEntries(organizationId, '2025-06-01T00:00:00.000Z', [
      ...stored.map(() => ({})),
      { changes: { tiny: { after: 0.00001 } } },
      // Exact entries between them, so batches mix both.
      ...Array.from({ length: 5 }, (_, n) => ({ targetName: `plain ${n}`, changes: { n: { after: n } } })),
    ]);
    for (const [index, changes] of stored.entries())
      await t.database.db.execute(
        sql`UPDATE audit_log_entry SET changes = ${changes}::jsonb WHERE organization_id = ${organizationId} AND target_id = ${`e-${index}`}`,
      );
    for (let index = 0; index <= stored.length; index += 1) {
      const filter = { targetType: 'application' as const, targetId: `e-${index}` };
      const lines = await readAuditLogCsvLines(t.database.db, organizationId, filter, 10);
      expect(lines.entries, `e-${index}`).toBe(1);
      expect(lines.exact, `e-${index}`).toBe(false);
    }
    const expected = await csvLinesOf(organizationId);
    expect(expected).toContain('"{""amount"":{""before"":1.5,""after"":2}}"');
    expect(expected).toContain('"{""10"":{""after"":""index key""},""b"":{""after"":""y""}}"');
    for (const batchSize of [3, 1_000]) {
      const chunks: string[] = [];
      for await (const chunk of auditLogCsv(t.database.db, organizationId, {}, batchSize)) chunks.push(chunk);
      expect(chunks.join(''), `batches of ${batchSize}`).toBe(`\uFEFF${HEADER}\r\n${expected}`);
    }
  });
});
