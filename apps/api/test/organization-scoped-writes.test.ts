import crypto from 'node:crypto';
import type { CreateInvitationsResponse } from '@portal/contracts';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { updateApplicationInState } from '../src/modules/applications/applications.repository.ts';
import { updateOpenInvitation } from '../src/modules/invitations/invitations.repository.ts';
import {
  addToMemberScope,
  deleteMemberUser,
  deleteOtherSessions,
  setMemberScope,
  updateMember,
  updatePassword,
} from '../src/modules/members/members.repository.ts';
import { invite, joinOrganization, jsonRequest, setUpOrganization, signIn, useTestApp } from './helper.ts';

const t = useTestApp();

/** An organisation set up by its super-admin, whose rows the tests write to or must leave alone. */
interface Organization {
  id: string;
  ownerCookie: string;
}

async function organization(domain: string): Promise<Organization> {
  const ownerCookie = await setUpOrganization(t.app, `owner@${domain}`);
  const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, ownerCookie));
  return { id: (me.json() as { organizationId: string }).organizationId, ownerCookie };
}

/** An application as provisioning leaves it: active in its region. */
async function newApplication(organizationId: string, name: string) {
  const id = crypto.randomUUID();
  await t.database.db
    .insert(schema.application)
    .values({ id, organizationId, name, plan: 'advance', region: 'EU', state: 'active' });
  return id;
}

let memberCount = 0;

/** A signed-in developer of the organisation, with their user id. */
async function newMember(organization: Organization) {
  memberCount += 1;
  const email = `developer${memberCount}@scoped-writes.example.com`;
  const { memberId } = await joinOrganization(t, email, organization.id, 'portal.developer');
  const [row] = await t.database.db
    .select({ userId: schema.member.userId })
    .from(schema.member)
    .where(eq(schema.member.id, memberId));
  if (!row) throw new Error(`no member ${memberId}`);
  return { memberId, userId: row.userId, email };
}

async function memberRow(memberId: string) {
  const [row] = await t.database.db
    .select({
      displayName: schema.member.displayName,
      roleId: schema.member.roleId,
      allApplications: schema.member.allApplications,
    })
    .from(schema.member)
    .where(eq(schema.member.id, memberId));
  return row;
}

async function scopeOf(memberId: string) {
  const rows = await t.database.db
    .select({ applicationId: schema.memberApplicationScope.applicationId })
    .from(schema.memberApplicationScope)
    .where(eq(schema.memberApplicationScope.memberId, memberId));
  return rows.map((row) => row.applicationId);
}

describe('writes scoped by organisation', () => {
  let owner: Organization;
  let other: Organization;

  beforeAll(async () => {
    owner = await organization('owner.example.com');
    other = await organization('other.example.com');
  });

  /**
   * Runs a write with the other organisation's id, which must leave what `read` sees unchanged,
   * then with the owning organisation's id, which must change it; answers what `read` sees then.
   */
  async function expectScopedWrite<T>(
    read: () => Promise<T>,
    write: (organizationId: string) => Promise<unknown>,
  ) {
    const before = await read();
    await write(other.id);
    expect(await read()).toEqual(before);
    await write(owner.id);
    const after = await read();
    expect(after).not.toEqual(before);
    return after;
  }

  it('updates an application only in its organisation', async () => {
    const applicationId = await newApplication(owner.id, 'Before');
    const read = async () => {
      const [row] = await t.database.db
        .select({ name: schema.application.name, state: schema.application.state })
        .from(schema.application)
        .where(eq(schema.application.id, applicationId));
      return row;
    };
    const after = await expectScopedWrite(read, (organizationId) =>
      updateApplicationInState(t.database.db, organizationId, applicationId, 'active', { name: 'After' }),
    );
    expect(after).toEqual({ name: 'After', state: 'active' });
  });

  it('changes an invitation only in its organisation', async () => {
    const invited = await invite(
      t.app,
      owner.ownerCookie,
      ['invitee@scoped-writes.example.com'],
      'portal.developer',
    );
    expect(invited.statusCode, invited.body).toBe(201);
    const [invitation] = (invited.json() as CreateInvitationsResponse).results;
    if (!invitation) throw new Error('no invitation created');
    const read = async () => {
      const [row] = await t.database.db
        .select({ status: schema.invitation.status })
        .from(schema.invitation)
        .where(eq(schema.invitation.id, invitation.id));
      return row;
    };
    const after = await expectScopedWrite(read, (organizationId) =>
      updateOpenInvitation(t.database.db, organizationId, invitation.id, { status: 'cancelled' }),
    );
    expect(after).toEqual({ status: 'cancelled' });
  });

  it('updates a member only in their organisation', async () => {
    const { memberId } = await newMember(owner);
    const after = await expectScopedWrite(
      () => memberRow(memberId),
      (organizationId) =>
        updateMember(t.database.db, organizationId, memberId, {
          displayName: 'Renamed',
          roleId: 'portal.analyst',
          allApplications: false,
        }),
    );
    expect(after).toEqual({ displayName: 'Renamed', roleId: 'portal.analyst', allApplications: false });
  });

  it('adds to the application scope of a member only in their organisation', async () => {
    const { memberId } = await newMember(owner);
    const applicationId = await newApplication(owner.id, 'Scoped');
    const after = await expectScopedWrite(
      () => scopeOf(memberId),
      (organizationId) => addToMemberScope(t.database.db, organizationId, memberId, [applicationId]),
    );
    expect(after).toEqual([applicationId]);
  });

  it('never adds another organisation’s application to a member’s scope', async () => {
    const { memberId } = await newMember(owner);
    const foreignApplicationId = await newApplication(other.id, 'Foreign');
    await addToMemberScope(t.database.db, owner.id, memberId, [foreignApplicationId]);
    await addToMemberScope(t.database.db, other.id, memberId, [foreignApplicationId]);
    expect(await scopeOf(memberId)).toEqual([]);
  });

  it('replaces the application scope of a member only in their organisation', async () => {
    const { memberId } = await newMember(owner);
    const first = await newApplication(owner.id, 'First');
    const second = await newApplication(owner.id, 'Second');
    await addToMemberScope(t.database.db, owner.id, memberId, [first]);
    const after = await expectScopedWrite(
      () => scopeOf(memberId),
      (organizationId) => setMemberScope(t.database.db, organizationId, memberId, [second]),
    );
    expect(after).toEqual([second]);
  });

  it('removes a member’s user only in their organisation', async () => {
    const { memberId, userId } = await newMember(owner);
    const read = async () => ({
      users: await t.database.db
        .select({ id: schema.user.id })
        .from(schema.user)
        .where(eq(schema.user.id, userId)),
      members: await t.database.db
        .select({ id: schema.member.id })
        .from(schema.member)
        .where(eq(schema.member.id, memberId)),
    });
    const after = await expectScopedWrite(read, (organizationId) =>
      deleteMemberUser(t.database.db, organizationId, userId),
    );
    expect(after).toEqual({ users: [], members: [] });
  });

  it('replaces the password of a member only in their organisation', async () => {
    const { userId } = await newMember(owner);
    const read = async () => {
      const [row] = await t.database.db
        .select({ password: schema.account.password })
        .from(schema.account)
        .where(eq(schema.account.userId, userId));
      return row;
    };
    const after = await expectScopedWrite(read, (organizationId) =>
      updatePassword(t.database.db, organizationId, userId, 'replaced-hash'),
    );
    expect(after).toEqual({ password: 'replaced-hash' });
  });

  it('ends the other sessions of a member only in their organisation', async () => {
    const { userId, email } = await newMember(owner);
    await signIn(t.app, email);
    const read = async () => {
      const rows = await t.database.db
        .select({ id: schema.session.id })
        .from(schema.session)
        .where(eq(schema.session.userId, userId))
        .orderBy(asc(schema.session.createdAt), asc(schema.session.id));
      return rows.map((row) => row.id);
    };
    const [kept] = await read();
    if (!kept) throw new Error('no session to keep');
    const after = await expectScopedWrite(read, (organizationId) =>
      deleteOtherSessions(t.database.db, organizationId, userId, kept),
    );
    expect(after).toEqual([kept]);
  });

  it('undoes every write given a transaction when the transaction fails', async () => {
    const { memberId } = await newMember(owner);
    const applicationId = await newApplication(owner.id, 'Kept out');
    const before = await memberRow(memberId);
    const failure = new Error('the transaction fails after both writes');
    await expect(
      t.database.db.transaction(async (tx) => {
        await updateMember(tx, owner.id, memberId, { displayName: 'Not kept', allApplications: false });
        await setMemberScope(tx, owner.id, memberId, [applicationId]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await memberRow(memberId)).toEqual(before);
    expect(await scopeOf(memberId)).toEqual([]);
  });
});
