import {
  InitialSetupRequestSchema,
  SUPER_ADMIN_ROLE,
  TRIAL_LENGTH_DAYS,
  UpdateAccountRequestSchema,
  permissionsForRoles,
  type Account,
  type MessageKey,
} from '@portal/contracts';
import type { z } from 'zod';
import type { Membership, SessionUser } from '../../auth/session.ts';
import type { Db } from '../../db/client.ts';
import { AppError, validationError } from '../../errors.ts';
import { updateMember } from '../members/members.repository.ts';
import { getMembership } from '../members/members.service.ts';
import { isKnownCountry, isKnownSubdivision } from '../utils/geography.ts';
import { updateOrganization } from './accounts.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export function toAccount(user: SessionUser, { member, organization: org }: Membership): Account {
  const roleIds = [member.roleId];
  return {
    email: org.email,
    organization: org.name,
    organizationId: org.id,
    displayName: member.displayName,
    memberId: member.id,
    userEmail: user.email,
    lastLogin: member.lastLoginAt?.getTime() ?? 0,
    roles: roleIds.map((id) => ({ id })),
    permissions: permissionsForRoles(roleIds),
    accountStatus: org.accountStatus,
    trialEndAt: org.trialEndAt?.toISOString() ?? null,
    // Saved cards arrive with the billing work; until then no organisation has one.
    havePaymentProfile: 'false',
    contractType: org.contractType,
    memberLimit: org.memberLimit,
    applicationLimit: org.applicationLimit,
    enforcedSSO: org.enforcedSso,
    isAccountFilled: org.isFilled,
    isFreeCredit: org.isFreeCredit,
    firstName: org.firstName,
    lastName: org.lastName,
    billingName: org.billingName,
    billingAddress: org.billingAddress,
    billingAddress2: org.billingAddress2,
    billingCountry: org.billingCountry,
    billingState: org.billingState,
    billingCity: org.billingCity,
    billingZipCode: org.billingZipCode,
    vatNumber: org.vatNumber,
  };
}

function parseOrThrow<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw validationError(parsed.error.issues);
  return parsed.data;
}

function fieldError(field: string, message: MessageKey): AppError {
  return validationError([{ path: [field], message }]);
}

/**
 * PUT /api/v1/accounts. Before setup it is the initial setup (super-admin only, legal documents
 * accepted, trial started); after setup it updates the billing details (VIEW_BILLING, active account).
 */
export async function updateAccount(
  db: Db,
  user: SessionUser,
  body: unknown,
  now = new Date(),
): Promise<Account> {
  const membership = await getMembership(db, user);
  const { member, organization } = membership;
  if (!organization.isFilled) {
    if (member.roleId !== SUPER_ADMIN_ROLE) throw new AppError('FORBIDDEN');
    const input = parseOrThrow(InitialSetupRequestSchema, body);
    const needsCountry = organization.contractType !== 'flat_rate';
    if (needsCountry && !input.billingCountry) {
      throw fieldError('billingCountry', 'validation.billingCountry.required');
    }
    if (input.billingCountry && !isKnownCountry(input.billingCountry)) {
      throw fieldError('billingCountry', 'errors.unknownCountry');
    }
    // The organisation is filled and its creator named after the person in the form, together.
    const completed = await db.transaction(async (tx) => {
      const updatedOrganization = await updateOrganization(tx, organization.id, {
        name: input.organization,
        firstName: input.firstName,
        lastName: input.lastName,
        billingCountry: needsCountry ? (input.billingCountry ?? '') : '',
        isFilled: true,
        trialEndAt: new Date(now.getTime() + TRIAL_LENGTH_DAYS * DAY_MS),
        privacyPolicyAcceptedAt: now,
        termsAcceptedAt: now,
      });
      const updatedMember = await updateMember(tx, organization.id, member.id, {
        displayName: `${input.firstName} ${input.lastName}`,
      });
      if (!updatedOrganization || !updatedMember) throw new AppError('NOT_FOUND');
      return { member: updatedMember, organization: updatedOrganization };
    });
    return toAccount(user, completed);
  }

  if (!permissionsForRoles([member.roleId]).includes('VIEW_BILLING')) throw new AppError('FORBIDDEN');
  if (organization.accountStatus !== 'active') {
    throw new AppError('FORBIDDEN', {
      message: 'Billing details can be changed only while the account is active.',
    });
  }
  const input = parseOrThrow(UpdateAccountRequestSchema, body);
  if (!isKnownCountry(input.billingCountry)) throw fieldError('billingCountry', 'errors.unknownCountry');
  if (!isKnownSubdivision(input.billingCountry, input.billingState)) {
    throw fieldError('billingState', 'errors.unknownState');
  }
  const { organization: name, ...billing } = input;
  const updated = await updateOrganization(db, organization.id, { name, ...billing });
  if (!updated) throw new AppError('NOT_FOUND');
  return toAccount(user, { member, organization: updated });
}
