import type { AuditLogEntry, ListAuditLogResponse } from '@portal/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, invite, jsonRequest, setUpOrganization, useTestApp } from './helper.ts';

/*
 * GET /api/v1/audit-log: the organisation's entries newest first, a page at a time by cursor,
 * filtered by actor, action, group, target and time; another organisation's entries never appear.
 */
const t = useTestApp();

let owner: string;
let ownerMemberId: string;
let other: string;
const INVITEES = ['a', 'b', 'c', 'd', 'e'].map((name) => `${name}@audit-read.example.com`);

async function page(cookie: string, query: string) {
  const response = await t.app.inject(jsonRequest('GET', `/api/v1/audit-log?${query}`, undefined, cookie));
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ListAuditLogResponse;
}

/** Every entry the query matches, following the cursors page by page. */
async function allPages(cookie: string, query: string, limit: number) {
  const entries: AuditLogEntry[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const answer: ListAuditLogResponse = await page(
      cookie,
      `${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    entries.push(...answer.results);
    cursor = answer.nextCursor;
    pages += 1;
  } while (cursor);
  return { entries, pages };
}

beforeAll(async () => {
  owner = await setUpOrganization(t.app, 'owner@audit-read.example.com');
  ownerMemberId = ((await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, owner))).json() as {
    memberId: string;
  }).memberId;
  // One invitation at a time, so the entries are made one after another.
  for (const email of INVITEES) expect((await invite(t.app, owner, [email], 'portal.developer')).statusCode).toBe(201);
  other = await setUpOrganization(t.app, 'owner@audit-read-other.example.com');
  expect((await invite(t.app, other, ['x@audit-read-other.example.com'], 'portal.developer')).statusCode).toBe(201);
});

describe('the audit log', () => {
  it('answers newest first, page by page, each entry once', async () => {
    const { entries, pages } = await allPages(owner, 'action=member.invited', 2);
    expect(pages).toBe(3);
    expect(entries.map((entry) => entry.target.name)).toEqual([...INVITEES].reverse());
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(INVITEES.length);
    const first = await page(owner, 'limit=200');
    expect(first.nextCursor).toBeNull();
    // The log starts with its founder joining, at the organisation's setup.
    expect(first.results.map((entry) => entry.action)).toEqual([
      ...INVITEES.map(() => 'member.invited'),
      'member.joined',
    ]);
  });

  it("never shows another organisation's entries, even named by their target", async () => {
    const theirs = await page(other, 'limit=200');
    expect(theirs.results.map((entry) => entry.target.name)).toEqual([
      'x@audit-read-other.example.com',
      'owner@audit-read-other.example.com',
    ]);
    const [ours] = (await page(owner, 'limit=1')).results;
    const named = await page(other, `targetType=invitation&targetId=${ours!.target.id}`);
    expect(named.results).toEqual([]);
    const byActor = await page(other, `actorMemberId=${ownerMemberId}`);
    expect(byActor.results).toEqual([]);
  });

  it('filters by actor, action, group, target and time', async () => {
    const all = (await page(owner, 'limit=200')).results;
    const target = all[2]!;
    expect((await page(owner, `actorMemberId=${ownerMemberId}`)).results).toEqual(all);
    expect((await page(owner, 'actorMemberId=someone-else')).results).toEqual([]);
    expect((await page(owner, 'actorKind=member')).results).toEqual(all);
    expect((await page(owner, 'actorKind=operator')).results).toEqual([]);
    expect((await page(owner, 'action=member.invited')).results).toHaveLength(INVITEES.length);
    expect((await page(owner, 'action=member.removed')).results).toEqual([]);
    expect((await page(owner, 'actionGroup=application')).results).toEqual([]);
    expect((await page(owner, `targetType=invitation&targetId=${target.target.id}`)).results).toEqual([target]);
    const from = encodeURIComponent(all[0]!.createdAt);
    expect((await page(owner, `from=${from}`)).results.map((entry) => entry.id)).toContain(all[0]!.id);
    expect((await page(owner, `to=${encodeURIComponent(all.at(-1)!.createdAt)}`)).results).toEqual([]);
    const future = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    expect((await page(owner, `from=${future}`)).results).toEqual([]);
  });

  it('refuses a bad query with 400 naming the field', async () => {
    for (const [query, field] of [
      ['cursor=not-a-cursor', 'cursor'],
      ['cursor=1700000000000-9999999999999999999', 'cursor'],
      ['targetId=abc', 'targetType'],
      ['actionGroup=everything', 'actionGroup'],
      ['action=member.exploded', 'action'],
      ['from=yesterday', 'from'],
      ['from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'to'],
      // Valid ISO times the database cannot hold (year 0, year 10000 in UTC).
      ['from=0000-01-01T00:00:00Z', 'from'],
      ['to=9999-12-31T23:59:59-14:00', 'to'],
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
    ] as const) {
      const response = await t.app.inject(jsonRequest('GET', `/api/v1/audit-log?${query}`, undefined, owner));
      expectApiError(response, 400);
      expect((response.json() as { message: string }).message, query).toContain(field);
    }
  });
});
