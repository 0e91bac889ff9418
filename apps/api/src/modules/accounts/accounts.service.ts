import {
  InitialSetupRequestSchema,
  SUPER_ADMIN_ROLE,
  TRIAL_LENGTH_DAYS,
  UpdateAccountRequestSchema,
  permissionsForRoles,
  type Account,
  type BillingCountryLock,
  type FreeCreditTier,
  type InitialSetupRequest,
  type MessageKey,
  type UpdateOrganizationSecurityRequest,
  type UpdateTourRequest,
  type TaxRates,
  type UpdateAccountRequest,
} from '@portal/contracts';
import type { z } from 'zod';
import type { Membership, SessionUser } from '../../auth/session.ts';
import { CREDENTIAL_PROVIDER_ID } from '../../auth/auth.ts';
import { mustEnrolWhenRequired } from '../../auth/two-factor.ts';
import type { Db } from '../../db/client.ts';
import { AppError, validationError } from '../../errors.ts';
import { assertPermission } from '../../plugins/authenticate.ts';
import { memberAuditContext, type RequestOrigin } from '../audit-log/audit-context.ts';
import { changedFields, record } from '../audit-log/audit-log.record.ts';
import { recordMemberJoined } from '../identity/identity-audit.ts';
import { updateMember } from '../members/members.repository.ts';
import { getMembership, requireMembership } from '../members/members.service.ts';
import { isKnownCountry, isKnownSubdivision } from '../utils/geography.ts';
import {
  hasCardPayment,
  listFreeCreditTiers,
  listTaxRates,
  lockOrganization,
  lockOrganizationSecurity,
  updateOrganization,
} from './accounts.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

function toAccount(user: SessionUser, { member, organization: org }: Membership): Account {
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
    havePaymentProfile: org.hasPaymentProfile ? 'true' : 'false',
    contractType: org.contractType,
    memberLimit: org.memberLimit,
    applicationLimit: org.applicationLimit,
    enforcedSSO: org.enforcedSso,
    isAccountFilled: org.isFilled,
    isFreeCredit: org.isFreeCredit,
    // Whole cents, so the division is exact to 2 decimals.
    balance: org.balanceCents / 100,
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
    requireTwoFactor: org.requireTwoFactor,
    twoFactorEnabled: user.twoFactorEnabled,
    twoFactorEnrolmentRequired: user.twoFactorEnrolmentRequired,
    hasPassword: user.signInProviders.includes(CREDENTIAL_PROVIDER_ID),
    offerTour: member.tourState === 'offered',
  };
}

/** The billing details as the form names them: what the billing form changes and its audit entry shows. */
function billingInformationOf(organization: Membership['organization']) {
  return {
    organization: organization.name,
    firstName: organization.firstName,
    lastName: organization.lastName,
    billingName: organization.billingName,
    billingAddress: organization.billingAddress,
    billingAddress2: organization.billingAddress2,
    billingCountry: organization.billingCountry,
    billingState: organization.billingState,
    billingCity: organization.billingCity,
    billingZipCode: organization.billingZipCode,
    vatNumber: organization.vatNumber,
  };
}

function parseForm<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw validationError(parsed.error.issues);
  return parsed.data;
}

function fieldError(field: string, message: MessageKey): AppError {
  return validationError([{ path: [field], message }]);
}

/**
 * A body of PUT /api/v1/accounts read as the form the caller may send (decision 005): before setup
 * the initial setup, the super-admin's only; after setup the billing details, with VIEW_BILLING on
 * an active account. 403 when the caller may send neither, 400 naming the form's fields.
 */
function readAccountUpdate({ member, organization }: Membership, body: unknown) {
  if (!organization.isFilled) {
    // A role, not a permission: the setup is its creator's, who became the organisation's super-admin
    // on the first account read (decision 001), and it names them; §2 opens its page to any sign-in.
    if (member.roleId !== SUPER_ADMIN_ROLE) throw new AppError('FORBIDDEN');
    return { form: 'setup' as const, input: parseForm(InitialSetupRequestSchema, body) };
  }
  if (!permissionsForRoles([member.roleId]).includes('VIEW_BILLING')) throw new AppError('FORBIDDEN');
  if (organization.accountStatus !== 'active') {
    throw new AppError('FORBIDDEN', {
      message: 'Billing details can be changed only while the account is active.',
    });
  }
  return { form: 'billing' as const, input: parseForm(UpdateAccountRequestSchema, body) };
}

export interface AccountsDeps {
  db: Db;
}

export function accountsService({ db }: AccountsDeps) {
  /**
   * Fills the organisation, names its creator after the person in the form and starts the trial.
   * The organisation begins here, so its log begins with its founder joining it.
   */
  async function setUp(
    user: SessionUser,
    origin: RequestOrigin,
    { member, organization }: Membership,
    input: InitialSetupRequest,
    now: Date,
  ) {
    const needsCountry = organization.contractType !== 'flat_rate';
    if (needsCountry && !input.billingCountry) {
      throw fieldError('billingCountry', 'validation.billingCountry.required');
    }
    if (input.billingCountry && !isKnownCountry(input.billingCountry)) {
      throw fieldError('billingCountry', 'errors.unknownCountry');
    }
    // The organisation is filled and its creator named after the person in the form, together; the
    // creator is offered the guided tour from then on, until they finish or skip it (decision 039).
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
        tourState: 'offered',
      });
      if (!updatedOrganization || !updatedMember) throw new AppError('NOT_FOUND');
      await recordMemberJoined(
        tx,
        { memberId: member.id, organizationId: organization.id, email: user.email, roleId: member.roleId },
        'organization_setup',
        origin,
        { organization: { after: updatedOrganization.name } },
      );
      return { member: updatedMember, organization: updatedOrganization };
    });
    return toAccount(user, completed);
  }

  /** Saves the billing details, recording the fields that changed in the same transaction. */
  async function updateBilling(
    user: SessionUser,
    origin: RequestOrigin,
    membership: Membership,
    input: UpdateAccountRequest,
  ) {
    const { member, organization } = membership;
    if (!isKnownCountry(input.billingCountry)) throw fieldError('billingCountry', 'errors.unknownCountry');
    if (!isKnownSubdivision(input.billingCountry, input.billingState)) {
      throw fieldError('billingState', 'errors.unknownState');
    }
    // Tax follows the country: once a card payment was taxed by it, only an operator changes it.
    if (input.billingCountry !== organization.billingCountry && (await hasCardPayment(db, organization.id))) {
      throw new AppError('BILLING_COUNTRY_LOCKED', { field: 'billingCountry' });
    }
    const { organization: name, ...billing } = input;
    const updated = await db.transaction(async (tx) => {
      const before = await lockOrganization(tx, organization.id);
      const after = before && (await updateOrganization(tx, organization.id, { name, ...billing }));
      if (!before || !after) throw new AppError('NOT_FOUND');
      const changes = changedFields(billingInformationOf(before), billingInformationOf(after));
      if (Object.keys(changes).length > 0) {
        await record(tx, {
          organizationId: organization.id,
          action: 'billing.information_changed',
          target: { type: 'organization', id: organization.id, name: after.name },
          changes,
          context: memberAuditContext(origin, user, membership),
        });
      }
      return after;
    });
    return toAccount(user, { member, organization: updated });
  }

  return {
    /** The caller's account; the first read of a new user creates their organisation (decision 001). */
    async me(user: SessionUser): Promise<Account> {
      return toAccount(user, await getMembership(db, user));
    },

    /** Whether the billing form may change the country: not once a card payment has fixed it (decision 030). */
    async billingCountryLock(user: SessionUser): Promise<BillingCountryLock> {
      const { member, organization } = await requireMembership(db, user);
      assertPermission(member.roleId, 'VIEW_BILLING');
      return {
        billingCountry: organization.billingCountry,
        locked: await hasCardPayment(db, organization.id),
      };
    },

    /** An update body checked against the caller's form alone: 403, or that form's field errors. */
    async checkUpdate(user: SessionUser, body: unknown): Promise<void> {
      readAccountUpdate(await getMembership(db, user), body);
    },

    /**
     * PUT /api/v1/accounts: the initial setup before setup, the billing details after. The body is
     * read as the caller's form again here: the organisation may have been set up since a check.
     */
    async update(user: SessionUser, origin: RequestOrigin, body: unknown, now = new Date()): Promise<Account> {
      const membership = await getMembership(db, user);
      const update = readAccountUpdate(membership, body);
      return update.form === 'setup'
        ? setUp(user, origin, membership, update.input, now)
        : updateBilling(user, origin, membership, update.input);
    },

    /**
     * PUT /api/v1/accounts/security (MANAGE_SECURITY, the super-admin's): whether members who sign in
     * with a password or Google must use a second factor. Requiring it takes effect on every session
     * at its next request. A caller who would be asked to enrol at once must turn it on first.
     */
    async updateOrganizationSecurity(
      user: SessionUser,
      origin: RequestOrigin,
      input: UpdateOrganizationSecurityRequest,
    ): Promise<Account> {
      const caller = await requireMembership(db, user);
      const { member, organization } = caller;
      assertPermission(member.roleId, 'MANAGE_SECURITY');
      if (input.requireTwoFactor && mustEnrolWhenRequired(user))
        throw new AppError('OWN_TWO_FACTOR_REQUIRED');
      const updated = await db.transaction(async (tx) => {
        // The row as it was, locked, so the entry's before is the value this change replaced.
        const current = await lockOrganizationSecurity(tx, organization.id);
        if (!current) throw new AppError('NOT_FOUND');
        const changed = await updateOrganization(tx, organization.id, { requireTwoFactor: input.requireTwoFactor });
        if (!changed) throw new AppError('NOT_FOUND');
        if (current.requireTwoFactor !== changed.requireTwoFactor)
          await record(tx, {
            organizationId: organization.id,
            action: 'two_factor.requirement_changed',
            target: { type: 'organization', id: organization.id, name: changed.name },
            changes: { requireTwoFactor: { before: current.requireTwoFactor, after: changed.requireTwoFactor } },
            context: memberAuditContext(origin, user, caller),
          });
        return changed;
      });
      return toAccount(user, { member, organization: updated });
    },

    /**
     * PUT /api/v1/accounts/me/tour (any member): the caller finished or skipped the guided tour, so it
     * is not offered again, on this device or another.
     */
    async updateTour(user: SessionUser, input: UpdateTourRequest): Promise<Account> {
      const { member, organization } = await requireMembership(db, user);
      const updated = await updateMember(db, organization.id, member.id, { tourState: input.outcome });
      if (!updated) throw new AppError('NOT_FOUND');
      return toAccount(user, { member: updated, organization });
    },

    async taxRates(): Promise<TaxRates> {
      const rates: Record<string, number> = {};
      let defaultRate = 0;
      for (const row of await listTaxRates(db)) {
        if (row.countryCode === null) defaultRate = Number(row.ratePercent);
        else rates[row.countryCode] = Number(row.ratePercent);
      }
      return { defaultRate, rates };
    },

    /** The tiers in USD, as the top-up form shows them; the table keeps cents (decision 006). */
    async freeCreditTiers(): Promise<FreeCreditTier[]> {
      const rows = await listFreeCreditTiers(db);
      return rows.map((row) => ({ start: row.startCents / 100, credit: row.creditCents / 100 }));
    },
  };
}
