import crypto from 'node:crypto';
import {
  INVITATION_VALIDITY_DAYS,
  OPEN_INVITATION_STATUSES,
  PENDING_INVITATIONS_MAX,
  ROLE_NAMES,
  formatMessage,
  type ApplicationState,
  type ConfirmInvitationRequest,
  type CreateInvitationsRequest,
  type ErrorCode,
  type Invitation,
  type MessageKey,
  type VerifyInvitationResponse,
} from '@portal/contracts';
import { hashPassword, type Auth } from '../../auth/auth.ts';
import { isFreeMailAddress } from '../../auth/free-mail.ts';
import type { Membership, SessionUser } from '../../auth/session.ts';
import { isUniqueViolation, type Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { invitationMail } from '../../mail/templates.ts';
import { assertPermission } from '../../plugins/authenticate.ts';
import { memberAuditContext, type RequestOrigin } from '../audit-log/audit-context.ts';
import { record } from '../audit-log/audit-log.record.ts';
import { recordMemberJoined, withRequestOrigin } from '../identity/identity-audit.ts';
import {
  findOrganizationApplications,
  insertMemberUser,
  setMemberScope,
} from '../members/members.repository.ts';
import {
  assertAssignable,
  memberById,
  requireMembership,
  resolveApplicationScope,
} from '../members/members.service.ts';
import {
  findInvitation,
  findInvitationByCodeHash,
  findOpenInvitationEmails,
  findUsersByEmail,
  insertInvitations,
  listOpenInvitations,
  lockInvitation,
  lockOrganizationAndCountSeats,
  updateOpenInvitation,
  type InvitationRow,
} from './invitations.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Only active applications are offered in the invitation's application selector (§4). */
const INVITABLE_APPLICATION_STATES: readonly ApplicationState[] = ['active'];
/** Applications that still exist when an invitee joins; others are dropped from their scope. */
const JOINABLE_APPLICATION_STATES: readonly ApplicationState[] = [
  'active',
  'initializing',
  'temporary_inactive',
  'inactive',
  'deactivated',
];

export interface InvitationsDeps {
  db: Db;
  mailer: Mailer;
  /** Signs the invitee in once they joined. */
  auth: Auth;
  publicUrl: string;
  portalName: string;
  log: { error(details: object, message: string): void };
}

/** A new invitation code: 256 random bits, sent by mail; only its SHA-256 is stored. */
function newCode(): { code: string; codeHash: string } {
  const code = crypto.randomBytes(32).toString('base64url');
  return { code, codeHash: hashCode(code) };
}

function hashCode(code: string): string {
  return crypto.createHash('sha256').update(code.trim()).digest('hex');
}

function errorWith(
  code: ErrorCode,
  message: MessageKey,
  values: Record<string, string | number>,
  field?: string,
) {
  return new AppError(code, { message: formatMessage(message, values), field });
}

function assertMayInvite(caller: Membership) {
  assertPermission(caller.member.roleId, 'INVITE_MEMBER');
  if (caller.organization.accountStatus !== 'active') throw new AppError('ACCOUNT_INACTIVE');
  if (caller.organization.enforcedSso) throw new AppError('SSO_ENFORCED');
}

/** The §8 error for an address that already has a portal user, in this organisation or another. */
function emailTakenError(
  email: string,
  userOrganizationId: string | null,
  organizationId: string,
  field?: string,
) {
  return userOrganizationId === organizationId
    ? errorWith(
        'MEMBER_EMAIL_ALREADY_EXISTS_IN_THIS_ORG',
        'invitation.error.memberInThisOrg',
        { email },
        field,
      )
    : errorWith(
        'MEMBER_EMAIL_ALREADY_EXISTS_IN_OTHER_ORG',
        'invitation.error.memberInOtherOrg',
        { email },
        field,
      );
}

function invitationTarget(row: Pick<InvitationRow, 'id' | 'email'>) {
  return { type: 'invitation' as const, id: row.id, name: row.email };
}

function isOpen(row: InvitationRow): boolean {
  return (OPEN_INVITATION_STATUSES as readonly string[]).includes(row.status);
}

function isExpired(row: InvitationRow, now: Date): boolean {
  return row.expiresAt.getTime() <= now.getTime();
}

export function invitationsService(deps: InvitationsDeps) {
  const { db, mailer, auth, publicUrl, portalName, log } = deps;

  async function present(rows: InvitationRow[], organizationId: string): Promise<Invitation[]> {
    const scopedIds = [...new Set(rows.flatMap((row) => row.applicationIds ?? []))];
    const applications = await findOrganizationApplications(
      db,
      organizationId,
      scopedIds,
      JOINABLE_APPLICATION_STATES,
    );
    const names = new Map(applications.map((app) => [app.id, app.name]));
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      roles: [{ id: row.roleId }],
      applicationScopes: row.applicationIds
        ? row.applicationIds.flatMap((id) => {
            const name = names.get(id);
            return name === undefined ? [] : [{ id, name }];
          })
        : null,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
    }));
  }

  /** Delivery failures are logged, not answered: the invitation exists and can be resent. */
  async function sendInvitation(caller: Membership, row: InvitationRow, code: string) {
    const mail = invitationMail({
      to: row.email,
      portalName,
      organizationName: caller.organization.name,
      inviterName: caller.member.displayName,
      roleName: ROLE_NAMES[row.roleId],
      link: `${publicUrl}/invitation-signup?${new URLSearchParams({ code }).toString()}`,
      expiresInDays: INVITATION_VALIDITY_DAYS,
    });
    try {
      await mailer.send(mail);
    } catch (error) {
      log.error({ err: error, to: row.email }, 'invitation mail delivery failed');
    }
  }

  /** The open invitation the caller may manage: same organisation, and not for a role the caller holds. */
  async function manageableInvitation(caller: Membership, invitationId: string) {
    const row = await findInvitation(db, caller.organization.id, invitationId);
    if (!row) throw new AppError('NOT_FOUND');
    if (!isOpen(row)) throw new AppError('INVITATION_NOT_OPEN');
    assertAssignable(caller, row.roleId);
    return row;
  }

  /** The open, unexpired invitation a code belongs to. */
  async function invitationByCode(code: string, now: Date) {
    const found = await findInvitationByCodeHash(db, hashCode(code));
    if (!found || !isOpen(found.invitation)) {
      throw new AppError('INVITATION_CODE_INVALID');
    }
    if (isExpired(found.invitation, now)) throw new AppError('INVITATION_CODE_EXPIRED');
    return found;
  }

  return {
    async list(user: SessionUser, limit: number) {
      const caller = await requireMembership(db, user);
      assertPermission(caller.member.roleId, 'VIEW_MEMBER');
      const { rows, total } = await listOpenInvitations(db, caller.organization.id, limit);
      return { results: await present(rows, caller.organization.id), total };
    },

    async create(user: SessionUser, origin: RequestOrigin, body: CreateInvitationsRequest, now = new Date()) {
      const caller = await requireMembership(db, user);
      assertMayInvite(caller);
      // The schema requires exactly one role; an empty one is refused as not assignable.
      const roleId = body.roleIds[0] ?? '';
      assertAssignable(caller, roleId);
      const organizationId = caller.organization.id;
      const emails = [...new Set(body.emails.map((email) => email.toLowerCase()))];
      // Members sign in with corporate addresses, as at sign-up (§5, decision 032). The inviter is not
      // the one signing up, so the refusal says what §8 calls it: personal email not allowed.
      if (emails.some(isFreeMailAddress))
        throw new AppError('CORPORATE_EMAIL_REQUIRED', { field: 'emails', message: 'loginWithEmail.error.personalEmail' });
      const applicationIds = await resolveApplicationScope(
        db,
        organizationId,
        roleId,
        body.applicationScopes,
        INVITABLE_APPLICATION_STATES,
      );

      const codes = new Map<string, string>();
      const created = await db.transaction(async (tx) => {
        const seats = await lockOrganizationAndCountSeats(tx, organizationId);
        const [existing] = await findUsersByEmail(tx, emails);
        if (existing)
          throw emailTakenError(
            existing.email.toLowerCase(),
            existing.organizationId,
            organizationId,
            'emails',
          );
        const [alreadyInvited] = await findOpenInvitationEmails(tx, organizationId, emails);
        if (alreadyInvited) {
          throw errorWith(
            'INVITATION_EMAIL_ALREADY_EXISTS',
            'invitation.error.emailAlreadyInvited',
            { email: alreadyInvited },
            'emails',
          );
        }
        if (seats.openInvitations + emails.length > PENDING_INVITATIONS_MAX) {
          throw new AppError('INVITATION_PENDING_LIMIT_EXCEEDED', { field: 'emails' });
        }
        const memberLimit = caller.organization.memberLimit;
        if (seats.members + seats.openInvitations + emails.length > memberLimit) {
          throw errorWith(
            'INVITATION_LIMIT_EXCEEDED',
            'invitation.error.limitExceeded',
            { limit: memberLimit },
            'emails',
          );
        }
        const expiresAt = new Date(now.getTime() + INVITATION_VALIDITY_DAYS * DAY_MS);
        const inserted = await insertInvitations(
          tx,
          organizationId,
          emails.map((email) => {
            const { code, codeHash } = newCode();
            const id = crypto.randomUUID();
            codes.set(id, code);
            return {
              id,
              email,
              roleId,
              applicationIds,
              codeHash,
              expiresAt,
              invitedByMemberId: caller.member.id,
            };
          }),
        );
        const context = memberAuditContext(origin, user, caller);
        for (const row of inserted) {
          await record(tx, {
            organizationId,
            action: 'member.invited',
            target: invitationTarget(row),
            changes: { role: { after: row.roleId }, applicationScope: { after: row.applicationIds } },
            context,
          });
        }
        return inserted;
      });
      await Promise.all(created.map((row) => sendInvitation(caller, row, codes.get(row.id) ?? '')));
      return { results: await present(created, organizationId) };
    },

    async cancel(user: SessionUser, origin: RequestOrigin, invitationId: string) {
      const caller = await requireMembership(db, user);
      assertPermission(caller.member.roleId, 'INVITE_MEMBER');
      const open = await manageableInvitation(caller, invitationId);
      await db.transaction(async (tx) => {
        const cancelled = await updateOpenInvitation(tx, caller.organization.id, invitationId, { status: 'cancelled' });
        if (!cancelled) throw new AppError('INVITATION_NOT_OPEN');
        await record(tx, {
          organizationId: caller.organization.id,
          action: 'member.invitation_cancelled',
          target: invitationTarget(cancelled),
          changes: { status: { before: open.status, after: cancelled.status } },
          context: memberAuditContext(origin, user, caller),
        });
      });
    },

    /** A new code and a new week: the link of the earlier mail stops working. */
    async resend(user: SessionUser, origin: RequestOrigin, invitationId: string, now = new Date()) {
      const caller = await requireMembership(db, user);
      assertMayInvite(caller);
      const open = await manageableInvitation(caller, invitationId);
      const { code, codeHash } = newCode();
      const expiresAt = new Date(now.getTime() + INVITATION_VALIDITY_DAYS * DAY_MS);
      const updated = await db.transaction(async (tx) => {
        const resent = await updateOpenInvitation(tx, caller.organization.id, invitationId, {
          status: 'resent',
          codeHash,
          expiresAt,
        });
        if (!resent) throw new AppError('INVITATION_NOT_OPEN');
        // The new code goes by mail only; the entry says the link changed, by its expiry.
        await record(tx, {
          organizationId: caller.organization.id,
          action: 'member.invitation_resent',
          target: invitationTarget(resent),
          changes: { expiresAt: { before: open.expiresAt.toISOString(), after: resent.expiresAt.toISOString() } },
          context: memberAuditContext(origin, user, caller),
        });
        return resent;
      });
      await sendInvitation(caller, updated, code);
      const [invitation] = await present([updated], caller.organization.id);
      return invitation;
    },

    async verify(code: string, now = new Date()): Promise<VerifyInvitationResponse> {
      const { invitation, organizationName } = await invitationByCode(code, now);
      return { invitationId: invitation.id, organizationName, email: invitation.email };
    },

    /**
     * Creates the invitee's user (email verified: the mailed link proves it), password and member
     * with the invited role and applications in one transaction, with its audit entry, marks the
     * invitation confirmed and signs the new member in. Answers the member and the session cookies to set.
     */
    async confirm(invitationId: string, origin: RequestOrigin, body: ConfirmInvitationRequest, now = new Date()) {
      const { invitation } = await invitationByCode(body.code, now);
      if (invitation.id !== invitationId) throw new AppError('INVITATION_CODE_INVALID');
      const passwordHash = await hashPassword(body.password);
      const userId = crypto.randomUUID();
      const memberId = crypto.randomUUID();
      // The organisation is the invitation's: the code, not a session, says who is joining where.
      const { organizationId } = invitation;
      const joined = db.transaction(async (tx) => {
        const locked = await lockInvitation(tx, organizationId, invitationId);
        if (!locked || locked.codeHash !== invitation.codeHash || !isOpen(locked)) {
          throw new AppError('INVITATION_CODE_INVALID');
        }
        const [existing] = await findUsersByEmail(tx, [locked.email]);
        if (existing) throw emailTakenError(locked.email, existing.organizationId, organizationId);
        await insertMemberUser(tx, organizationId, {
          userId,
          memberId,
          email: locked.email,
          displayName: body.displayName,
          passwordHash,
          roleId: locked.roleId,
          allApplications: locked.applicationIds === null,
        });
        if (locked.applicationIds) {
          const remaining = await findOrganizationApplications(
            tx,
            organizationId,
            locked.applicationIds,
            JOINABLE_APPLICATION_STATES,
          );
          await setMemberScope(
            tx,
            organizationId,
            memberId,
            remaining.map((app) => app.id),
          );
        }
        await updateOpenInvitation(tx, organizationId, invitationId, { status: 'confirmed' });
        await recordMemberJoined(
          tx,
          { memberId, organizationId, email: locked.email, roleId: locked.roleId },
          'invitation',
          origin,
        );
      });
      try {
        await joined;
      } catch (error) {
        // Someone signed up with the address between the check and the insert.
        if (isUniqueViolation(error)) throw emailTakenError(invitation.email, null, organizationId);
        throw error;
      }
      const signIn = await withRequestOrigin(origin, () =>
        auth.api.signInEmail({ body: { email: invitation.email, password: body.password }, asResponse: true }),
      );
      if (!signIn.ok) throw new AppError('INTERNAL_ERROR');
      return {
        member: await memberById(db, organizationId, memberId),
        cookies: signIn.headers.getSetCookie(),
      };
    },
  };
}
