import type { Invitation, ListInvitationsResponse, ListMembersResponse, Member } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { CREATED, FORBIDDEN, NOT_FOUND, NO_CONTENT, OK, UNAUTHORIZED, type Outcome } from './access-outcomes.ts';
import {
  STRONG_PASSWORD,
  expectApiError,
  invite,
  joinByInvitation,
  jsonRequest,
  setUpOrganization,
  signInRequest,
  useTestApp,
} from './helper.ts';

/*
 * Every members, invitations and roles call against every kind of caller, with the answer the
 * architecture's role table gives: VIEW_MEMBER for super-admin, admin and moderator; EDIT_MEMBER,
 * INVITE_MEMBER and DELETE_MEMBER for super-admin and admin; 404 for another organisation's objects;
 * each case is one test, and calls that change something get a fresh member or invitation.
 */

const t = useTestApp();

const CALLERS = ['anonymous', 'super-admin', 'admin', 'moderator', 'analyst', 'developer', 'other organisation'] as const;
type Caller = (typeof CALLERS)[number];
type SignedIn = Exclude<Caller, 'anonymous'>;

interface Person {
  cookie: string;
  memberId: string;
  email: string;
}

const MEMBER_NOT_EDITABLE: Outcome = { status: 403, code: 'MEMBER_NOT_EDITABLE' };
const ROLE_NOT_ASSIGNABLE: Outcome = { status: 403, code: 'ROLE_NOT_ASSIGNABLE' };
const CANNOT_REMOVE_SELF: Outcome = { status: 409, code: 'CANNOT_REMOVE_SELF' };

/*
 * Who holds a permission, copied from the architecture's role table (not read from the contracts the
 * server uses, so a wrong entry there fails these tests).
 */
const ROLES = ['super-admin', 'admin', 'moderator', 'analyst', 'developer'] as const;
type Role = (typeof ROLES)[number];
const ANY_ROLE: readonly Role[] = ROLES;
const VIEW_MEMBER: readonly Role[] = ['super-admin', 'admin', 'moderator'];
/** EDIT_MEMBER, INVITE_MEMBER and DELETE_MEMBER have the same holders. */
const MANAGE_MEMBER: readonly Role[] = ['super-admin', 'admin'];
const NO_ROLE: readonly Role[] = [];

/**
 * The answers the role table gives a call: `allowed` to the roles that hold its permission, 403
 * FORBIDDEN to the other roles, 401 to anonymous callers, `otherOrganisation` to another organisation's
 * super-admin; `exceptions` are the peer and super-admin rules.
 */
function answersFor(
  holders: readonly Role[],
  allowed: Outcome,
  otherOrganisation: Outcome,
  exceptions: Partial<Record<Caller, Outcome>> = {},
): Record<Caller, Outcome> {
  const byRole = Object.fromEntries(ROLES.map((role) => [role, holders.includes(role) ? allowed : FORBIDDEN]));
  return { anonymous: UNAUTHORIZED, ...(byRole as Record<Role, Outcome>), 'other organisation': otherOrganisation, ...exceptions };
}

const EDIT = { displayName: 'Edited By Matrix', roleIds: ['portal.analyst'], applicationScopes: null };
const NEW_PASSWORD = 'N3w!Passw0rd-2026';

const people = {} as Record<SignedIn, Person>;
/** A developer of the organisation whom the read-only calls address. */
let target: Person;
/** An open developer invitation of the organisation, and one of the other organisation, for the list calls. */
let listedInvitation: Invitation;
let strangersInvitation: Invitation;

let serial = 0;
function freshEmail(label: string) {
  serial += 1;
  return `${label}-${serial}@matrix.example.com`;
}

function call(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, cookie: string | undefined, body?: unknown) {
  return t.app.inject(jsonRequest(method, url, body, cookie));
}

async function freshMember(roleId: string): Promise<Person> {
  const email = freshEmail(roleId.replace('portal.', ''));
  return { ...(await joinByInvitation(t.app, people['super-admin'].cookie, email, roleId)), email };
}

async function freshInvitation(inviterCookie = people['super-admin'].cookie): Promise<Invitation> {
  const response = await invite(t.app, inviterCookie, [freshEmail('invitee')], 'portal.developer');
  expect(response.statusCode, response.body).toBe(201);
  const [invitation] = (response.json() as { results: Invitation[] }).results;
  if (!invitation) throw new Error('no invitation in the answer');
  return invitation;
}

/** A member as the super-admin reads them; undefined once they are gone. */
async function readMember(memberId: string): Promise<Member | undefined> {
  const response = await call('GET', `/api/v1/members/${memberId}`, people['super-admin'].cookie);
  if (response.statusCode === 404) return undefined;
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Member;
}

async function openInvitations(cookie: string): Promise<Invitation[]> {
  const response = await call('GET', '/api/v1/invitations?limit=50', cookie);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as ListInvitationsResponse).results;
}

interface Prepared {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  url: string;
  body?: unknown;
  /** The session to call with when a fresh member of the caller's role stands in for the caller. */
  cookie?: string;
  /** What must hold afterwards: what the answer shows or changed when allowed, that nothing changed when refused. */
  verify?(response: LightMyRequestResponse, allowed: boolean): Promise<void> | void;
}

interface Row {
  call: string;
  expected: Partial<Record<Caller, Outcome>>;
  prepare(caller: Caller): Promise<Prepared>;
}

/** A change to `member` (fresh where it can be): when refused, the member reads exactly as before. */
async function changeMember(
  member: Person,
  method: 'PUT' | 'DELETE',
  body: unknown,
  whenAllowed: (response: LightMyRequestResponse, after: Member | undefined) => void,
): Promise<Prepared> {
  const before = await readMember(member.memberId);
  expect(before).toBeDefined();
  return {
    method,
    url: `/api/v1/members/${member.memberId}`,
    body,
    verify: async (response, allowed) => {
      const after = await readMember(member.memberId);
      if (allowed) whenAllowed(response, after);
      else expect(after).toEqual(before);
    },
  };
}

/** The answer and the member afterwards both show EDIT's name with `roleId` and access to all applications. */
function edited(roleId: string) {
  return (response: LightMyRequestResponse, after: Member | undefined) => {
    expect(response.json()).toMatchObject({ displayName: EDIT.displayName, roles: [{ id: roleId }], applicationScopes: null });
    expect(after).toEqual(response.json());
  };
}

function removed(_response: LightMyRequestResponse, after: Member | undefined) {
  expect(after).toBeUndefined();
}

/** PUT (to analyst, all applications) or DELETE of a fresh member of `roleId`, so no case sees another's change. */
function freshMemberRow(method: 'PUT' | 'DELETE', label: string, roleId: string, expected: Row['expected']): Row {
  return {
    call: `${method} /api/v1/members/:id (${label})`,
    expected,
    prepare: async () => {
      const member = await freshMember(roleId);
      return method === 'PUT' ? changeMember(member, 'PUT', EDIT, edited('portal.analyst')) : changeMember(member, 'DELETE', undefined, removed);
    },
  };
}

/** POST /api/v1/invitations of a fresh address: it lands in the caller's own organisation or nowhere. */
function inviteRow(roleId: string, expected: Row['expected']): Row {
  return {
    call: `POST /api/v1/invitations (${roleId})`,
    expected,
    prepare: async (caller) => {
      const email = freshEmail('invited');
      return {
        method: 'POST',
        url: '/api/v1/invitations',
        body: { emails: [email], roleIds: [roleId], applicationScopes: null },
        verify: async (response, allowed) => {
          if (allowed) {
            expect((response.json() as { results: Invitation[] }).results).toEqual([
              expect.objectContaining({ email, roles: [{ id: roleId }], status: 'pending' }),
            ]);
            const inviter = people[caller as SignedIn];
            expect((await openInvitations(inviter.cookie)).map((i) => i.email)).toContain(email);
          }
          const inThisOrganisation = (await openInvitations(people['super-admin'].cookie)).map((i) => i.email);
          expect(inThisOrganisation.includes(email)).toBe(allowed && caller !== 'other organisation');
        },
      };
    },
  };
}

/** A call on a fresh open invitation of the organisation; `statusWhenAllowed` undefined means it leaves the open list. */
function invitationRow(
  method: 'POST' | 'DELETE',
  suffix: string,
  statusWhenAllowed: Invitation['status'] | undefined,
  expected: Row['expected'],
): Row {
  return {
    call: `${method} /api/v1/invitations/:id${suffix}`,
    expected,
    prepare: async () => {
      const invitation = await freshInvitation();
      return {
        method,
        url: `/api/v1/invitations/${invitation.id}${suffix}`,
        verify: async (_response, allowed) => {
          const listed = (await openInvitations(people['super-admin'].cookie)).find((i) => i.id === invitation.id);
          expect(listed?.status).toBe(allowed ? statusWhenAllowed : 'pending');
        },
      };
    },
  };
}

/**
 * A list (VIEW_MEMBER) call: members of the organisation see `ours` and none of `theirs`, the other
 * organisation's super-admin the reverse.
 */
function listRow(path: string, keysOf: (body: unknown) => string[], ours: () => string[], theirs: () => string[]): Row {
  return {
    call: `GET ${path}`,
    expected: answersFor(VIEW_MEMBER, OK, OK),
    prepare: async (caller) => ({
      method: 'GET',
      url: `${path}?limit=50`,
      verify: (response, allowed) => {
        if (!allowed) return;
        const keys = keysOf(response.json());
        const [seen, unseen] = caller === 'other organisation' ? [theirs(), ours()] : [ours(), theirs()];
        expect(keys).toEqual(expect.arrayContaining(seen));
        for (const key of unseen) expect(keys).not.toContain(key);
      },
    }),
  };
}

const ROWS: Row[] = [
  {
    call: 'GET /api/v1/roles',
    expected: answersFor(ANY_ROLE, OK, OK),
    prepare: async () => ({
      method: 'GET',
      url: '/api/v1/roles?limit=50',
      verify: (response, allowed) => {
        if (!allowed) return;
        const ids = (response.json() as { results: { id: string }[] }).results.map((role) => role.id);
        expect(ids).toEqual(['portal.super-admin', 'portal.admin', 'portal.moderator', 'portal.analyst', 'portal.developer']);
      },
    }),
  },
  listRow(
    '/api/v1/members',
    (body) => (body as ListMembersResponse).results.map((member) => member.email),
    () => [...ROLES.map((role) => people[role].email), target.email],
    () => [people['other organisation'].email],
  ),
  {
    call: 'GET /api/v1/members/me',
    expected: answersFor(ANY_ROLE, OK, OK),
    prepare: async (caller) => ({
      method: 'GET',
      url: '/api/v1/members/me',
      verify: (response, allowed) => {
        if (!allowed) return;
        const self = people[caller as SignedIn];
        expect(response.json()).toMatchObject({ id: self.memberId, email: self.email });
      },
    }),
  },
  {
    call: 'GET /api/v1/members/:id (a developer)',
    expected: answersFor(VIEW_MEMBER, OK, NOT_FOUND),
    prepare: async () => ({
      method: 'GET',
      url: `/api/v1/members/${target.memberId}`,
      verify: (response, allowed) => {
        if (allowed) expect(response.json()).toMatchObject({ id: target.memberId, email: target.email, roles: [{ id: 'portal.developer' }] });
      },
    }),
  },
  freshMemberRow('PUT', 'a developer', 'portal.developer', answersFor(MANAGE_MEMBER, OK, NOT_FOUND)),
  freshMemberRow('DELETE', 'a developer', 'portal.developer', answersFor(MANAGE_MEMBER, NO_CONTENT, NOT_FOUND)),
  {
    call: 'PUT /api/v1/members/:id/password (a developer, not oneself)',
    // Only one's own password: no role changes another member's.
    expected: answersFor(NO_ROLE, NO_CONTENT, NOT_FOUND),
    prepare: async () => ({
      method: 'PUT',
      url: `/api/v1/members/${target.memberId}/password`,
      body: { currentPassword: STRONG_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      verify: async () => {
        expect((await signInRequest(t.app, target.email, STRONG_PASSWORD)).statusCode).toBe(200);
      },
    }),
  },
  listRow(
    '/api/v1/invitations',
    (body) => (body as ListInvitationsResponse).results.map((invitation) => invitation.id),
    () => [listedInvitation.id],
    () => [strangersInvitation.id],
  ),
  inviteRow('portal.developer', answersFor(MANAGE_MEMBER, CREATED, CREATED)),
  // Nobody grants a role they hold: an admin may invite a developer but not another admin.
  inviteRow('portal.admin', answersFor(MANAGE_MEMBER, CREATED, CREATED, { admin: ROLE_NOT_ASSIGNABLE })),
  invitationRow('DELETE', '', undefined, answersFor(MANAGE_MEMBER, NO_CONTENT, NOT_FOUND)),
  invitationRow('POST', '/resend', 'resent', answersFor(MANAGE_MEMBER, OK, NOT_FOUND)),
  // The peer rule: a member who shares the caller's role is out of the caller's reach.
  freshMemberRow('PUT', 'another admin', 'portal.admin', answersFor(MANAGE_MEMBER, OK, NOT_FOUND, { admin: MEMBER_NOT_EDITABLE })),
  freshMemberRow('DELETE', 'another admin', 'portal.admin', answersFor(MANAGE_MEMBER, NO_CONTENT, NOT_FOUND, { admin: MEMBER_NOT_EDITABLE })),
  // A fresh member of the caller's role deletes themselves; the super-admin's own case is in the last row.
  {
    call: 'DELETE /api/v1/members/:id (oneself)',
    expected: { admin: CANNOT_REMOVE_SELF, moderator: FORBIDDEN, analyst: FORBIDDEN, developer: FORBIDDEN },
    prepare: async (caller) => {
      const self = await freshMember(`portal.${caller}`);
      return { ...(await changeMember(self, 'DELETE', undefined, removed)), cookie: self.cookie };
    },
  },
  // Nobody but the super-admin touches the super-admin, and they edit only their own name. Last: when
  // the server gets these wrong the organisation's owner is gone or demoted.
  {
    call: 'PUT /api/v1/members/:id (the super-admin)',
    expected: answersFor(MANAGE_MEMBER, OK, NOT_FOUND, { admin: MEMBER_NOT_EDITABLE }),
    // Editing oneself renames only: the analyst role asked for is ignored.
    prepare: async () => changeMember(people['super-admin'], 'PUT', EDIT, edited('portal.super-admin')),
  },
  {
    call: 'DELETE /api/v1/members/:id (the super-admin)',
    expected: answersFor(MANAGE_MEMBER, NO_CONTENT, NOT_FOUND, { 'super-admin': CANNOT_REMOVE_SELF, admin: MEMBER_NOT_EDITABLE }),
    prepare: async () => changeMember(people['super-admin'], 'DELETE', undefined, removed),
  },
];

const CASES = ROWS.flatMap((row) =>
  CALLERS.flatMap((caller) => {
    const expected = row.expected[caller];
    if (!expected) return [];
    const answer = expected.code ? `${expected.status} ${expected.code}` : String(expected.status);
    return [{ name: `${row.call} as ${caller} → ${answer}`, row, caller, expected }];
  }),
);

describe('members, invitations and roles: every call × every kind of caller', () => {
  beforeAll(async () => {
    const ownerEmail = 'owner@matrix.example.com';
    const ownerCookie = await setUpOrganization(t.app, ownerEmail);
    const account = (await call('GET', '/api/v1/accounts/me', ownerCookie)).json() as { organizationId: string; memberId: string };
    people['super-admin'] = { cookie: ownerCookie, memberId: account.memberId, email: ownerEmail };
    // Fresh members and invitations for every case outnumber the default limit of 10.
    await t.database.db.update(schema.organization).set({ memberLimit: 200 }).where(eq(schema.organization.id, account.organizationId));
    for (const role of ['admin', 'moderator', 'analyst', 'developer'] as const) {
      const email = `${role}@matrix.example.com`;
      people[role] = { ...(await joinByInvitation(t.app, ownerCookie, email, `portal.${role}`)), email };
    }
    target = await freshMember('portal.developer');
    listedInvitation = await freshInvitation();

    const strangerEmail = 'owner@elsewhere-matrix.example.com';
    const strangerCookie = await setUpOrganization(t.app, strangerEmail);
    const stranger = (await call('GET', '/api/v1/members/me', strangerCookie)).json() as Member;
    people['other organisation'] = { cookie: strangerCookie, memberId: stranger.id, email: strangerEmail };
    strangersInvitation = await freshInvitation(strangerCookie);
  });

  // A loop rather than it.each: it.each quotes and cuts `$name` at 40 characters.
  for (const { name, row, caller, expected } of CASES) {
    it(name, async () => {
      const prepared = await row.prepare(caller);
      const cookie = prepared.cookie ?? (caller === 'anonymous' ? undefined : people[caller].cookie);
      const response = await call(prepared.method, prepared.url, cookie, prepared.body);
      if (expected.code) expectApiError(response, expected.status, expected.code);
      else expect(response.statusCode, response.body).toBe(expected.status);
      await prepared.verify?.(response, expected.code === undefined);
    });
  }
});
