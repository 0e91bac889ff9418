import type { Invitation, ListInvitationsResponse, Member } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import {
  STRONG_PASSWORD,
  expectApiError,
  invitationCodeFromMail,
  invite,
  joinByInvitation,
  jsonRequest,
  latestMail,
  mailsTo,
  setUpOrganization,
  signInRequest,
  useTestApp,
} from './helper.ts';

const t = useTestApp();

async function codeMailedTo(email: string) {
  const mail = await latestMail(t.app, email);
  if (!mail) throw new Error(`no mail to ${email}`);
  return invitationCodeFromMail(mail.text);
}

function verify(code: string) {
  return t.app.inject(jsonRequest('POST', '/api/invitations/verify', { code }));
}

function confirm(invitationId: string, code: string, overrides: Record<string, unknown> = {}) {
  return t.app.inject(
    jsonRequest('POST', `/api/invitations/${invitationId}/confirm`, {
      displayName: 'New Person',
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
      code,
      ...overrides,
    }),
  );
}

async function listInvitations(cookie: string) {
  const response = await t.app.inject(jsonRequest('GET', '/api/v1/invitations?limit=50', undefined, cookie));
  expect(response.statusCode).toBe(200);
  return response.json() as ListInvitationsResponse;
}

describe('invitations', () => {
  let owner: string;
  let organizationId: string;

  beforeAll(async () => {
    owner = await setUpOrganization(t.app, 'owner@invite.example.com');
    const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, owner));
    organizationId = (me.json() as { organizationId: string }).organizationId;
  });

  it('invites by mail; the invitee verifies, signs up and is signed in as a member with the invited role', async () => {
    const response = await invite(t.app, owner, ['  Dev.One@Invite.example.com '], 'portal.developer');
    expect(response.statusCode).toBe(201);
    const { results } = response.json() as { results: Invitation[] };
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ email: 'dev.one@invite.example.com', roles: [{ id: 'portal.developer' }], status: 'pending', applicationScopes: null });

    const mail = await latestMail(t.app, 'dev.one@invite.example.com');
    expect(mail?.subject).toMatch(/invited to join Acme/);
    expect(mail?.text).toContain('http://localhost:3000/invitation-signup?code=');
    const code = invitationCodeFromMail(mail?.text ?? '');
    // Only a hash of the code is stored.
    const stored = await t.database.db.select().from(schema.invitation).where(eq(schema.invitation.id, results[0]?.id ?? ''));
    expect(stored[0]?.codeHash).not.toContain(code);

    const verified = await verify(code);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ invitationId: results[0]?.id, organizationName: 'Acme', email: 'dev.one@invite.example.com' });

    const confirmed = await confirm(results[0]?.id ?? '', code, { displayName: 'Dev One' });
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    const { member } = confirmed.json() as { member: Member };
    expect(member).toMatchObject({ displayName: 'Dev One', email: 'dev.one@invite.example.com', roles: [{ id: 'portal.developer' }], applicationScopes: null, hasPassword: true });
    const cookie = String(confirmed.headers['set-cookie']).split(';')[0] ?? '';
    const account = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, cookie));
    expect(account.json()).toMatchObject({ organizationId, memberId: member.id, roles: [{ id: 'portal.developer' }] });
    expect((account.json() as { permissions: string[] }).permissions).toEqual(['VIEW_APPLICATION', 'EDIT_APPLICATION', 'CREATE_APPLICATION']);

    // The code is spent, and the invitee signs in with the chosen password.
    expectApiError(await verify(code), 404, 'INVITATION_CODE_INVALID');
    expect((await signInRequest(t.app, 'dev.one@invite.example.com')).statusCode).toBe(200);
    expect((await listInvitations(owner)).results.map((i) => i.email)).not.toContain('dev.one@invite.example.com');
  });

  it('refuses duplicates with the specification wording', async () => {
    expect((await invite(t.app, owner, ['dup@invite.example.com'], 'portal.analyst')).statusCode).toBe(201);
    const again = expectApiError(await invite(t.app, owner, ['dup@invite.example.com'], 'portal.analyst'), 409, 'INVITATION_EMAIL_ALREADY_EXISTS');
    expect(again.message).toBe('dup@invite.example.com are already been invited. Please use a different email.');

    const inOrg = expectApiError(await invite(t.app, owner, ['owner@invite.example.com'], 'portal.analyst'), 409, 'MEMBER_EMAIL_ALREADY_EXISTS_IN_THIS_ORG');
    expect(inOrg.message).toBe('owner@invite.example.com is already in the organization.');

    await setUpOrganization(t.app, 'elsewhere@other.example.com');
    const other = expectApiError(await invite(t.app, owner, ['Elsewhere@other.example.com'], 'portal.analyst'), 409, 'MEMBER_EMAIL_ALREADY_EXISTS_IN_OTHER_ORG');
    expect(other.message).toBe('elsewhere@other.example.com is already associated with another organization.');
  });

  it('never grants the super-admin role or the inviter’s own role', async () => {
    expectApiError(await invite(t.app, owner, ['boss@invite.example.com'], 'portal.super-admin'), 403, 'ROLE_NOT_ASSIGNABLE');
    const admin = await joinByInvitation(t.app, owner, 'admin@invite.example.com', 'portal.admin');
    expectApiError(await invite(t.app, admin.cookie, ['peer@invite.example.com'], 'portal.admin'), 403, 'ROLE_NOT_ASSIGNABLE');
    expect((await invite(t.app, admin.cookie, ['mod@invite.example.com'], 'portal.moderator')).statusCode).toBe(201);
  });

  it('validates the request: one role, 1–20 valid emails, known applications', async () => {
    const body = (extra: Record<string, unknown>) =>
      t.app.inject(jsonRequest('POST', '/api/v1/invitations', { emails: ['v@invite.example.com'], roleIds: ['portal.analyst'], ...extra }, owner));
    expect(expectApiError(await body({ emails: ['not-an-email'] }), 400, 'VALIDATION_ERROR').message).toContain('Please enter a valid email.');
    expect(expectApiError(await body({ roleIds: [] }), 400, 'VALIDATION_ERROR').message).toContain('Please enter a role.');
    expectApiError(await body({ roleIds: ['portal.analyst', 'portal.developer'] }), 400, 'VALIDATION_ERROR');
    expectApiError(await body({ roleIds: ['portal.owner'] }), 400, 'VALIDATION_ERROR');
    const many = Array.from({ length: 21 }, (_, i) => `many${i}@invite.example.com`);
    expectApiError(await body({ emails: many }), 400, 'VALIDATION_ERROR');
    expect(expectApiError(await body({ applicationScopes: ['no-such-app'] }), 400, 'VALIDATION_ERROR').field).toBe('applicationScopes');
    expectApiError(await body({ applicationScopes: [] }), 400, 'VALIDATION_ERROR');
  });

  it.each(['dev@gmail.com', 'dev@proton.me', 'dev@qq.com', 'Dev@Mail.Gmail.Com'])(
    'refuses the free-mail address %s with CORPORATE_EMAIL_REQUIRED: nobody of the batch is invited or mailed',
    async (freeMail) => {
      const colleague = `colleague-of-${freeMail.split('@')[1]?.toLowerCase()}@invite.example.com`;
      const refused = expectApiError(await invite(t.app, owner, [colleague, freeMail], 'portal.analyst'), 400, 'CORPORATE_EMAIL_REQUIRED');
      expect(refused.field).toBe('emails');
      expect(refused.message).toBe('Personal email is not allowed.');
      const open = (await listInvitations(owner)).results.map((i) => i.email);
      expect(open).not.toContain(colleague);
      expect(open).not.toContain(freeMail.toLowerCase());
      expect(await mailsTo(t.app, colleague)).toEqual([]);
      expect(await mailsTo(t.app, freeMail.toLowerCase())).toEqual([]);
    },
  );

  it('invites a company subdomain named like a provider: outlook.invite-corp.com is not outlook.com', async () => {
    const response = await invite(t.app, owner, ['dev@outlook.invite-corp.com'], 'portal.analyst');
    expect(response.statusCode, response.body).toBe(201);
    expect(await mailsTo(t.app, 'dev@outlook.invite-corp.com')).toHaveLength(1);
  });

  it('resend issues a new code: the old link stops working, the new one works', async () => {
    await invite(t.app, owner, ['resend@invite.example.com'], 'portal.analyst');
    const oldCode = await codeMailedTo('resend@invite.example.com');
    const invitation = (await listInvitations(owner)).results.find((i) => i.email === 'resend@invite.example.com');
    const resent = await t.app.inject(jsonRequest('POST', `/api/v1/invitations/${invitation?.id}/resend`, undefined, owner));
    expect(resent.statusCode).toBe(200);
    expect((resent.json() as Invitation).status).toBe('resent');
    expect(await mailsTo(t.app, 'resend@invite.example.com')).toHaveLength(2);
    const newCode = await codeMailedTo('resend@invite.example.com');
    expect(newCode).not.toBe(oldCode);
    expectApiError(await verify(oldCode), 404, 'INVITATION_CODE_INVALID');
    expect((await verify(newCode)).statusCode).toBe(200);
  });

  it('cancel ends the invitation and its link', async () => {
    await invite(t.app, owner, ['cancel@invite.example.com'], 'portal.analyst');
    const code = await codeMailedTo('cancel@invite.example.com');
    const invitation = (await listInvitations(owner)).results.find((i) => i.email === 'cancel@invite.example.com');
    const cancelled = await t.app.inject(jsonRequest('DELETE', `/api/v1/invitations/${invitation?.id}`, undefined, owner));
    expect(cancelled.statusCode).toBe(204);
    expectApiError(await verify(code), 404, 'INVITATION_CODE_INVALID');
    expectApiError(await t.app.inject(jsonRequest('DELETE', `/api/v1/invitations/${invitation?.id}`, undefined, owner)), 409, 'INVITATION_NOT_OPEN');
    expectApiError(await t.app.inject(jsonRequest('POST', `/api/v1/invitations/${invitation?.id}/resend`, undefined, owner)), 409, 'INVITATION_NOT_OPEN');
  });

  it('an expired code answers INVITATION_CODE_EXPIRED on verify and confirm', async () => {
    await invite(t.app, owner, ['late@invite.example.com'], 'portal.analyst');
    const code = await codeMailedTo('late@invite.example.com');
    const invitation = (await listInvitations(owner)).results.find((i) => i.email === 'late@invite.example.com');
    await t.database.db
      .update(schema.invitation)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.invitation.id, invitation?.id ?? ''));
    const expired = expectApiError(await verify(code), 410, 'INVITATION_CODE_EXPIRED');
    expect(expired.message).toBe('The invitation link has expired');
    expectApiError(await confirm(invitation?.id ?? '', code), 410, 'INVITATION_CODE_EXPIRED');
  });

  it('confirm needs the invitation’s own code, a strong password and a matching confirmation', async () => {
    await invite(t.app, owner, ['strict@invite.example.com'], 'portal.analyst');
    const code = await codeMailedTo('strict@invite.example.com');
    const { invitationId } = (await verify(code)).json() as { invitationId: string };
    expectApiError(await confirm(invitationId, 'wrong-code'), 404, 'INVITATION_CODE_INVALID');
    expectApiError(await confirm('another-id', code), 404, 'INVITATION_CODE_INVALID');
    const weak = expectApiError(await confirm(invitationId, code, { password: 'short', confirmPassword: 'short' }), 400, 'VALIDATION_ERROR');
    expect(weak.field).toBe('password');
    const mismatch = expectApiError(await confirm(invitationId, code, { confirmPassword: `${STRONG_PASSWORD}x` }), 400, 'VALIDATION_ERROR');
    expect(mismatch.message).toContain('Password mismatch');
    expectApiError(await confirm(invitationId, code, { displayName: '  ' }), 400, 'VALIDATION_ERROR');
    expect((await confirm(invitationId, code)).statusCode).toBe(201);
    expectApiError(await confirm(invitationId, code), 404, 'INVITATION_CODE_INVALID');
  });

  it('an invitation for someone who meanwhile signed up elsewhere cannot be confirmed', async () => {
    await invite(t.app, owner, ['racer@invite.example.com'], 'portal.analyst');
    const code = await codeMailedTo('racer@invite.example.com');
    const { invitationId } = (await verify(code)).json() as { invitationId: string };
    await setUpOrganization(t.app, 'racer@invite.example.com');
    expectApiError(await confirm(invitationId, code), 409, 'MEMBER_EMAIL_ALREADY_EXISTS_IN_OTHER_ORG');
  });
});

describe('isUniqueViolation', () => {
  it('recognises a duplicate key through the driver and Drizzle, and nothing else', async () => {
    const row = { id: 'dup-user', name: 'Dup', email: 'dup-user@unique.example.com', emailVerified: true };
    await t.database.db.insert(schema.user).values(row);
    const duplicate = await t.database.db.insert(schema.user).values({ ...row, id: 'dup-user-2' }).catch((error: unknown) => error);
    expect(isUniqueViolation(duplicate)).toBe(true);
    const otherFailure = await t.database.db.insert(schema.member).values({ id: 'm', organizationId: 'missing', userId: 'missing', displayName: 'x', roleId: 'portal.admin' }).catch((error: unknown) => error);
    expect(otherFailure).toBeInstanceOf(Error);
    expect(isUniqueViolation(otherFailure)).toBe(false);
  });
});

describe('invitation limits', () => {
  it('counts members and open invitations against memberLimit, with the specification wording', async () => {
    const owner = await setUpOrganization(t.app, 'owner@limits.example.com');
    const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, owner));
    const { organizationId } = me.json() as { organizationId: string };
    await t.database.db.update(schema.organization).set({ memberLimit: 3 }).where(eq(schema.organization.id, organizationId));

    expect((await invite(t.app, owner, ['a@limits.example.com', 'b@limits.example.com'], 'portal.analyst')).statusCode).toBe(201);
    const refused = expectApiError(await invite(t.app, owner, ['c@limits.example.com'], 'portal.analyst'), 409, 'INVITATION_LIMIT_EXCEEDED');
    expect(refused.message).toBe(
      'Member limit reached. You have reached the 3-member limit in your organization. But you can still remove or replace them.',
    );
    // Nothing of a refused request is kept.
    expect(await mailsTo(t.app, 'c@limits.example.com')).toHaveLength(0);
  });

  it('allows at most 50 open invitations per organisation', async () => {
    const owner = await setUpOrganization(t.app, 'owner@pending.example.com');
    const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, owner));
    const { organizationId } = me.json() as { organizationId: string };
    await t.database.db.update(schema.organization).set({ memberLimit: 500 }).where(eq(schema.organization.id, organizationId));
    for (let batch = 0; batch < 3; batch += 1) {
      const emails = Array.from({ length: 16 }, (_, i) => `p${batch}-${i}@pending.example.com`);
      expect((await invite(t.app, owner, emails, 'portal.analyst')).statusCode).toBe(201);
    }
    expect((await invite(t.app, owner, ['p-48@pending.example.com', 'p-49@pending.example.com'], 'portal.analyst')).statusCode).toBe(201);
    expectApiError(await invite(t.app, owner, ['p-50@pending.example.com'], 'portal.analyst'), 409, 'INVITATION_PENDING_LIMIT_EXCEEDED');
    const list = await t.app.inject(jsonRequest('GET', '/api/v1/invitations?limit=50', undefined, owner));
    expect((list.json() as ListInvitationsResponse).total).toBe(50);
  });

  it('refuses invitations on an inactive account and under enforced SSO', async () => {
    const owner = await setUpOrganization(t.app, 'owner@closed.example.com');
    const me = await t.app.inject(jsonRequest('GET', '/api/v1/accounts/me', undefined, owner));
    const { organizationId } = me.json() as { organizationId: string };
    await t.database.db.update(schema.organization).set({ accountStatus: 'inactive', inactiveReason: 'operator' }).where(eq(schema.organization.id, organizationId));
    expectApiError(await invite(t.app, owner, ['x@closed.example.com'], 'portal.analyst'), 403, 'ACCOUNT_INACTIVE');
    await t.database.db
      .update(schema.organization)
      .set({ accountStatus: 'active', inactiveReason: null, enforcedSso: true })
      .where(eq(schema.organization.id, organizationId));
    expectApiError(await invite(t.app, owner, ['x@closed.example.com'], 'portal.analyst'), 403, 'SSO_ENFORCED');
  });
});
