import { z } from 'zod';
import { TransactionIdParamsSchema } from './billing.ts';
import { BILLING_CYCLE_PATTERN, TRANSACTION_STATUSES } from './billing-constants.ts';
import { ACCOUNT_STATUSES, CONTRACT_TYPES, INACTIVE_REASONS, PLAN_KEYS } from './constants.ts';
import { isValidEmail } from './rules.ts';

/**
 * The operator API: what the operator CLI (`npm run portal`) asks the running portal, with the
 * operator token as its bearer credential instead of a member's session.
 */
export const OPERATOR_API_PREFIX = '/api/operator/v1';

/** Organisations a page of the operator's list holds. */
export const OPERATOR_ORGANIZATION_PAGE_SIZE = 100;

/** Money an operator types, in USD with at most 2 decimals ("499.00"), turned into cents without floats. */
export const UsdAmountSchema = z
  .string()
  .trim()
  .regex(/^\d{1,10}(\.\d{1,2})?$/, 'must be an amount in USD with at most 2 decimals, such as 499.00');

export const OperatorOrganizationParamsSchema = z.object({
  organization: z
    .string()
    .trim()
    .min(1)
    .max(320)
    .describe('The organisation id, or the address of one of its members'),
});

export const ListOperatorOrganizationsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
});
export type ListOperatorOrganizationsQuery = z.infer<typeof ListOperatorOrganizationsQuerySchema>;

/** An organisation as the operator's list shows it; amounts in USD. */
export const OperatorOrganizationSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  contractType: z.enum(CONTRACT_TYPES),
  accountStatus: z.enum(ACCOUNT_STATUSES),
  /**
   * Why an inactive account is so (null while active): `billing`, a charge or invoice left unpaid,
   * which a payment or a new card ends; `operator`, suspended here, which only an operator ends.
   */
  inactiveReason: z.enum(INACTIVE_REASONS).nullable(),
  isAccountFilled: z.boolean(),
  balance: z.number(),
  createdAt: z.string(),
});
export type OperatorOrganizationSummary = z.infer<typeof OperatorOrganizationSummarySchema>;

export const ListOperatorOrganizationsResponseSchema = z.object({
  data: z.array(OperatorOrganizationSummarySchema),
  total: z.number().int(),
});
export type ListOperatorOrganizationsResponse = z.infer<typeof ListOperatorOrganizationsResponseSchema>;

/** One organisation with everything an operator sets: contract, limits, status, free credit, balance. */
export const OperatorOrganizationSchema = OperatorOrganizationSummarySchema.extend({
  trialEndAt: z.string().nullable(),
  /** The country whose tax top-ups and invoices carry ('' for a flat-rate organisation that gave none). */
  billingCountry: z.string(),
  /** Fixed by a card payment (decision 030): members cannot change it any more, only an operator. */
  billingCountryLocked: z.boolean(),
  isFreeCredit: z.boolean(),
  minimumBalance: z.number(),
  contract: z.object({
    type: z.enum(CONTRACT_TYPES),
    licenseMau: z.number().int(),
    licenseFee: z.number(),
    overagePlan: z.enum(PLAN_KEYS),
    supportPlan: z.string(),
    supportPlanFee: z.number(),
  }),
  limits: z.object({ applications: z.number().int(), members: z.number().int() }),
  usage: z.object({ applications: z.number().int(), members: z.number().int() }),
});
export type OperatorOrganization = z.infer<typeof OperatorOrganizationSchema>;

/**
 * A contract replaces the one before it. PAYG takes nothing else; flat-rate needs its licence (MAU
 * and monthly fee) and may name a support plan with its fee and the plan pricing MAU above the licence.
 */
export const SetContractRequestSchema = z
  .object({
    type: z.enum(CONTRACT_TYPES),
    licenseMau: z.number().int().min(0).max(2_000_000_000).optional(),
    licenseFee: UsdAmountSchema.optional(),
    supportPlan: z.string().trim().max(64).optional(),
    supportPlanFee: UsdAmountSchema.optional(),
    overagePlan: z.enum(PLAN_KEYS).optional(),
  })
  .superRefine((contract, ctx) => {
    const flatRateOnly = [
      'licenseMau',
      'licenseFee',
      'supportPlan',
      'supportPlanFee',
      'overagePlan',
    ] as const;
    if (contract.type === 'payg') {
      for (const field of flatRateOnly) {
        if (contract[field] !== undefined)
          ctx.addIssue({ code: 'custom', path: [field], message: 'is for a flat-rate contract only' });
      }
      return;
    }
    for (const field of ['licenseMau', 'licenseFee'] as const) {
      if (contract[field] === undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: 'is required for a flat-rate contract' });
    }
  });
export type SetContractRequest = z.infer<typeof SetContractRequestSchema>;

const limit = z.number().int().min(0).max(100_000);
export const SetLimitsRequestSchema = z
  .object({ applications: limit.optional(), members: limit.optional() })
  .refine((limits) => limits.applications !== undefined || limits.members !== undefined, {
    path: ['applications'],
    message: 'name the application limit, the member limit or both',
  });
export type SetLimitsRequest = z.infer<typeof SetLimitsRequestSchema>;

export const SetStatusRequestSchema = z.object({ status: z.enum(ACCOUNT_STATUSES) });
export type SetStatusRequest = z.infer<typeof SetStatusRequestSchema>;

/**
 * The billing country an operator sets, also once a card payment has fixed it (decision 030): an ISO
 * 3166-1 code the portal knows. The state is cleared when it is not one of the new country's.
 */
export const SetBillingCountryRequestSchema = z.object({
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'must be a two-letter country code, such as SG'),
});
export type SetBillingCountryRequest = z.infer<typeof SetBillingCountryRequestSchema>;

/** Whether the organisation's top-ups earn free credit by the tiers (`GET /api/v1/accounts/freecredits`). */
export const SetFreeCreditRequestSchema = z.object({ enabled: z.boolean() });
export type SetFreeCreditRequest = z.infer<typeof SetFreeCreditRequestSchema>;

export const GrantCreditRequestSchema = z.object({
  amount: UsdAmountSchema.refine((amount) => Number(amount) > 0, 'must be more than 0'),
  note: z.string().trim().min(1).max(500),
  /** Names the grant: the same key again answers the grant it made instead of granting twice. */
  idempotencyKey: z.string().trim().min(1).max(100).optional(),
});
export type GrantCreditRequest = z.infer<typeof GrantCreditRequestSchema>;

export const GrantCreditResponseSchema = z.object({
  transactionId: z.string(),
  amount: z.number(),
  balance: z.number(),
  /** True when an earlier request with the same idempotency key made this grant. */
  alreadyGranted: z.boolean(),
});
export type GrantCreditResponse = z.infer<typeof GrantCreditResponseSchema>;

/**
 * The most a miscellaneous charge may come to before tax, in USD: a mistyped amount (a few digits
 * too many) is refused rather than put before the customer; more is billed as several charges.
 */
export const MAX_MISCELLANEOUS_CHARGE_AMOUNT = 100_000;

/**
 * A one-off charge an operator raises (decision 040): open until the organisation pays it by card,
 * the billing country's tax added to the amount as on a flat-rate invoice.
 */
export const CreateMiscellaneousChargeRequestSchema = z.object({
  amount: UsdAmountSchema.refine((amount) => Number(amount) > 0, 'must be more than 0').refine(
    (amount) => Number(amount) <= MAX_MISCELLANEOUS_CHARGE_AMOUNT,
    `must be at most ${MAX_MISCELLANEOUS_CHARGE_AMOUNT}`,
  ),
  /** What the charge is for, shown to the organisation in its billing list and on its page. */
  notes: z.string().trim().min(1).max(500),
  /** Names the charge: the same key again answers the charge it raised instead of raising another. */
  idempotencyKey: z.string().trim().min(1).max(100).optional(),
});
export type CreateMiscellaneousChargeRequest = z.infer<typeof CreateMiscellaneousChargeRequestSchema>;

export const CreateMiscellaneousChargeResponseSchema = z.object({
  transactionId: z.string(),
  status: z.enum(TRANSACTION_STATUSES),
  notes: z.string(),
  /** Before tax, USD. */
  amount: z.number(),
  tax: z.number(),
  taxPercentage: z.number(),
  /** What the organisation pays, tax included, USD. */
  total: z.number(),
  /** True when an earlier request with the same idempotency key raised this charge. */
  alreadyCreated: z.boolean(),
});
export type CreateMiscellaneousChargeResponse = z.infer<typeof CreateMiscellaneousChargeResponseSchema>;

export const OperatorChargeParamsSchema = OperatorOrganizationParamsSchema.extend({
  /** The charge's transaction id, as raising it answered (leading zeros or not), as members' paths take it. */
  transactionId: TransactionIdParamsSchema.shape.id,
});

/**
 * Voids a miscellaneous charge raised by mistake (decision 040, "Voiding"): open → voided, so it is
 * no longer due and cannot be paid. Why is kept in the audit log.
 */
export const VoidMiscellaneousChargeRequestSchema = z.object({
  reason: z.string().trim().min(1).max(500),
});
export type VoidMiscellaneousChargeRequest = z.infer<typeof VoidMiscellaneousChargeRequestSchema>;

export const VoidMiscellaneousChargeResponseSchema = z.object({
  transactionId: z.string(),
  status: z.enum(TRANSACTION_STATUSES),
  notes: z.string(),
  /** What the organisation would have paid, tax included, USD. */
  total: z.number(),
  /** True when the charge had already been voided (a repeat): nothing changed. */
  alreadyVoided: z.boolean(),
});
export type VoidMiscellaneousChargeResponse = z.infer<typeof VoidMiscellaneousChargeResponseSchema>;

const month = z.string().regex(BILLING_CYCLE_PATTERN, 'must be a month as YYYY-MM');

export const ImportUsageRequestSchema = z.object({ month: month.optional() });
export type ImportUsageRequest = z.infer<typeof ImportUsageRequestSchema>;
export const ImportUsageResponseSchema = z.object({ month, recorded: z.number().int() });
export type ImportUsageResponse = z.infer<typeof ImportUsageResponseSchema>;

export const RunBillingRequestSchema = z.object({
  month,
  organization: OperatorOrganizationParamsSchema.shape.organization.optional(),
});
export type RunBillingRequest = z.infer<typeof RunBillingRequestSchema>;

export const RunBillingResponseSchema = z.object({
  month,
  billed: z.array(
    z.object({
      organizationId: z.string(),
      transactionId: z.string(),
      status: z.enum(TRANSACTION_STATUSES),
      charge: z.number(),
      credit: z.number(),
      paid: z.number(),
      due: z.number(),
    }),
  ),
  alreadyBilled: z.array(z.string()),
  becameInactive: z.array(z.string()),
  failed: z.array(z.object({ organizationId: z.string(), error: z.string() })),
});
export type RunBillingResponse = z.infer<typeof RunBillingResponseSchema>;

/**
 * Removes a person's second factor (authenticator app and backup codes) and ends their sessions: the
 * way back in for someone who has lost both, the super-admin above all, once the operator has checked
 * who is asking (docs/operations.md).
 */
export const ResetTwoFactorRequestSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1)
    .refine(isValidEmail, 'must be an email address')
    .describe('The address the person signs in with, in any case'),
});
export type ResetTwoFactorRequest = z.infer<typeof ResetTwoFactorRequestSchema>;

export const ResetTwoFactorResponseSchema = z.object({
  /** The address as the portal holds it. */
  email: z.string(),
  /** The organisation the person is a member of, if any. */
  organizationId: z.string().nullable(),
  /** Whether a confirmed second factor was removed; false when there was none, and only sessions ended. */
  hadSecondFactor: z.boolean(),
  /** The organisation requires a second factor: the next sign-in leads through enrolment again. */
  requireTwoFactor: z.boolean(),
});
export type ResetTwoFactorResponse = z.infer<typeof ResetTwoFactorResponseSchema>;
