import { z } from 'zod';
import { ACCOUNT_STATUSES, CONTRACT_TYPES, NO_STATE_CODE, VAT_OPTIONS } from './constants.ts';
import type { MessageKey } from './messages.ts';
import { PERMISSIONS, ROLE_IDS } from './permissions.ts';

const key = (k: MessageKey) => k;
const TEXT_MAX = 255;
const requiredText = (message: MessageKey) =>
  z.string({ error: message }).trim().min(1, message).max(TEXT_MAX, key('validation.tooLong'));
const optionalText = z.string().trim().max(TEXT_MAX, key('validation.tooLong')).default('');
const countryCode = z
  .string({ error: key('validation.billingCountry.required') })
  .trim()
  .min(1, key('validation.billingCountry.required'))
  .regex(/^[A-Z]{2}$/, key('errors.unknownCountry'));

export const RoleRefSchema = z.object({ id: z.enum(ROLE_IDS) });

export const AccountSchema = z.object({
  email: z.string(),
  organization: z.string(),
  organizationId: z.string(),
  displayName: z.string(),
  memberId: z.string(),
  userEmail: z.string(),
  lastLogin: z.number(),
  roles: z.array(RoleRefSchema),
  permissions: z.array(z.enum(PERMISSIONS)),
  accountStatus: z.enum(ACCOUNT_STATUSES),
  trialEndAt: z.string().nullable(),
  havePaymentProfile: z.enum(['true', 'false']),
  contractType: z.enum(CONTRACT_TYPES),
  memberLimit: z.number().int(),
  applicationLimit: z.number().int(),
  enforcedSSO: z.boolean(),
  isAccountFilled: z.boolean(),
  isFreeCredit: z.boolean(),
  /** Beyond the spec: the prepaid balance in USD (PAYG), which top-ups raise and monthly charges spend. */
  balance: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  billingName: z.string(),
  billingAddress: z.string(),
  billingAddress2: z.string(),
  billingCountry: z.string(),
  billingState: z.string(),
  billingCity: z.string(),
  billingZipCode: z.string(),
  vatNumber: z.string(),
  /** Beyond the spec: the organisation requires a second factor of members who sign in with a password or Google. */
  requireTwoFactor: z.boolean(),
  /** The signed-in user has confirmed an authenticator app. */
  twoFactorEnabled: z.boolean(),
  /** The organisation requires a second factor this user does not have yet: nothing else opens until it is set up. */
  twoFactorEnrolmentRequired: z.boolean(),
  /** The signed-in user has a password (confirms turning two-factor authentication on and off). */
  hasPassword: z.boolean(),
  /** Beyond the spec: offer this member the guided tour (its organisation's creator, until they finish or skip it). */
  offerTour: z.boolean(),
});
export type Account = z.infer<typeof AccountSchema>;

/** How a member ended the guided tour; either way it is not offered again (decision 039). */
export const TOUR_OUTCOMES = ['finished', 'skipped'] as const;
export type TourOutcome = (typeof TOUR_OUTCOMES)[number];

/** PUT /api/v1/accounts/me/tour (any member): how the caller ended the guided tour. */
export const UpdateTourRequestSchema = z.object({
  outcome: z.enum(TOUR_OUTCOMES, { error: key('validation.tourOutcome') }),
});
export type UpdateTourRequest = z.infer<typeof UpdateTourRequestSchema>;

/** PUT /api/v1/accounts/security (super-admin): whether the organisation requires two-factor authentication. */
export const UpdateOrganizationSecurityRequestSchema = z.object({
  requireTwoFactor: z.boolean(),
});
export type UpdateOrganizationSecurityRequest = z.infer<typeof UpdateOrganizationSecurityRequestSchema>;

/** PUT /api/v1/accounts after setup: the billing details (an empty vatNumber means unregistered). */
export const UpdateAccountRequestSchema = z.object({
  organization: requiredText(key('validation.organization.required')),
  firstName: requiredText(key('validation.firstName.required')),
  lastName: requiredText(key('validation.lastName.required')),
  billingName: optionalText,
  billingAddress: requiredText(key('validation.billingAddress.required')),
  billingAddress2: optionalText,
  billingCountry: countryCode,
  billingState: requiredText(key('validation.billingState.required')),
  billingCity: optionalText,
  billingZipCode: requiredText(key('validation.billingZipCode.required')),
  vatNumber: optionalText,
});
export type UpdateAccountRequest = z.infer<typeof UpdateAccountRequestSchema>;

/**
 * The billing form (§5) as the user fills it: the update request plus vatOption, which decides
 * whether vatNumber is required.
 */
export const BillingFormSchema = UpdateAccountRequestSchema.extend({ vatOption: z.enum(VAT_OPTIONS) }).refine(
  (form) => form.vatOption === 'unregistered' || form.vatNumber.length > 0,
  { message: key('validation.vatNumber.required'), path: ['vatNumber'] },
);
export type BillingForm = z.infer<typeof BillingFormSchema>;

/**
 * Initial organisation setup (§5): organization, first and last name; the country is required
 * except for the flat-rate contract. Both legal documents must have been accepted in the dialog.
 */
export const InitialSetupRequestSchema = UpdateAccountRequestSchema.pick({
  organization: true,
  firstName: true,
  lastName: true,
}).extend({
  billingCountry: countryCode.optional(),
  acceptedPrivacyPolicy: z.literal(true, { error: key('errors.legalNotAccepted') }),
  acceptedTerms: z.literal(true, { error: key('errors.legalNotAccepted') }),
});
export type InitialSetupRequest = z.infer<typeof InitialSetupRequestSchema>;

export const InitialSetupFormSchema = InitialSetupRequestSchema.omit({
  acceptedPrivacyPolicy: true,
  acceptedTerms: true,
});
export type InitialSetupForm = z.infer<typeof InitialSetupFormSchema>;

export const CountrySchema = z.object({ label: z.string(), value: z.string() });
export const CountriesResponseSchema = z.array(CountrySchema);
export type CountriesResponse = z.infer<typeof CountriesResponseSchema>;
export type Country = z.infer<typeof CountrySchema>;

export const SubdivisionsQuerySchema = z.object({
  countryCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, key('errors.unknownCountry')),
});
export const SubdivisionSchema = z.object({ name: z.string(), code: z.string() });
export const SubdivisionsResponseSchema = z.array(SubdivisionSchema);
export type Subdivision = z.infer<typeof SubdivisionSchema>;
export { NO_STATE_CODE };

/**
 * GET /api/v1/accounts/billing-country (VIEW_BILLING): whether the billing country is fixed. Tax
 * follows the billing country, so once the organisation has a card payment (a top-up or an invoice
 * paid, or one under way) members cannot change it; an operator can (decision 030). Read by the
 * billing form alone, so the account read on every page load stays one statement.
 */
export const BillingCountryLockSchema = z.object({
  billingCountry: z.string(),
  locked: z.boolean(),
});
export type BillingCountryLock = z.infer<typeof BillingCountryLockSchema>;

export const TaxRatesResponseSchema = z.object({
  defaultRate: z.number(),
  rates: z.record(z.string(), z.number()),
});
export type TaxRates = z.infer<typeof TaxRatesResponseSchema>;

/** Free-credit tiers in USD: a top-up of at least `start` earns `credit`. */
export const FreeCreditTierSchema = z.object({ start: z.number(), credit: z.number() });
export const FreeCreditTiersResponseSchema = z.array(FreeCreditTierSchema);
export type FreeCreditTier = z.infer<typeof FreeCreditTierSchema>;
