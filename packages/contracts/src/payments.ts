import { z } from 'zod';
import type { FreeCreditTier } from './account.ts';

/** Card brands the portal accepts, as payment profiles name them (§3). */
export const CARD_TYPES = ['visa', 'master', 'american_express', 'discover'] as const;
export type CardType = (typeof CARD_TYPES)[number];

export const CARD_TYPE_LABELS: Record<CardType, string> = {
  visa: 'VISA',
  master: 'Mastercard',
  american_express: 'AMEX',
  discover: 'Discover',
};

/** The message a card of a brand the portal does not accept gets, word for word (§8). */
export const CARD_NOT_SUPPORTED_MESSAGE = 'Your card is not supported.';

export const MIN_TOP_UP_AMOUNT = 1;
/** A ceiling well above any real top-up, so a typo of extra digits is refused before any card is charged. */
export const MAX_TOP_UP_AMOUNT = 1_000_000;

export const PAYMENT_PROVIDERS = ['sandbox', 'stripe'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/** The payment-page types of `/payment/:sub/:type` (§2). */
export const PAYMENT_PAGE_TYPES = ['top-up', 'invoice', 'misc'] as const;
export type PaymentPageType = (typeof PAYMENT_PAGE_TYPES)[number];

/** A saved card (§3 payment profile). */
export const PaymentProfileSchema = z.object({
  id: z.string(),
  cardType: z.enum(CARD_TYPES),
  /** Only the last 4 digits are known to the portal: `**** **** **** 4242`. */
  maskedCardNumber: z.string(),
  expirationMonth: z.number().int(),
  expirationYear: z.number().int(),
  defaultPayment: z.boolean(),
});
export type PaymentProfile = z.infer<typeof PaymentProfileSchema>;
export const PaymentProfilesResponseSchema = z.array(PaymentProfileSchema);

/** A card token from the gateway's tokeniser: the portal API never sees a card number. */
const CardTokenSchema = z.string().trim().min(1).max(255);

export const AddPaymentProfileRequestSchema = z.object({
  token: CardTokenSchema,
  setAsDefault: z.boolean().default(true),
});
export type AddPaymentProfileRequest = z.input<typeof AddPaymentProfileRequestSchema>;

export const AddPaymentProfileResponseSchema = PaymentProfileSchema.extend({
  /**
   * True when the card settled what an inactive account owed and the account is active again: its
   * applications come back within 24 hours (the reactivation dialog).
   */
  accountReactivated: z.boolean(),
});
export type AddPaymentProfileResponse = z.infer<typeof AddPaymentProfileResponseSchema>;

export const PaymentProfileParamsSchema = z.object({ id: z.string().trim().min(1).max(64) });
export const DefaultPaymentProfileParamsSchema = z.object({ profileId: z.string().trim().min(1).max(64) });

/** Which card pays: a fresh token from the card form, or a saved card. */
const PaymentSourceSchema = z.object({
  token: CardTokenSchema.optional(),
  paymentProfileId: z.string().trim().min(1).max(64).optional(),
});

function exactlyOneSource(source: z.infer<typeof PaymentSourceSchema>, ctx: z.RefinementCtx) {
  if ((source.token === undefined) === (source.paymentProfileId === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: ['token'],
      message: 'give either a card token or a saved card (paymentProfileId), not both',
    });
  }
}

/** A USD amount as the form sends it: a number with at most 2 decimals. */
const usdNumber = z
  .number()
  .refine((value) => Number.isFinite(value) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, {
    message: 'must have at most 2 decimals',
  });

export const TopUpRequestSchema = PaymentSourceSchema.extend({
  amount: usdNumber
    .refine((value) => value >= MIN_TOP_UP_AMOUNT, { message: `must be at least ${MIN_TOP_UP_AMOUNT}` })
    .refine((value) => value <= MAX_TOP_UP_AMOUNT, { message: `must be at most ${MAX_TOP_UP_AMOUNT}` }),
}).superRefine(exactlyOneSource);
export type TopUpRequest = z.infer<typeof TopUpRequestSchema>;

export const TopUpResponseSchema = z.object({
  /** The `topup` transaction, padded to 9 digits. */
  transactionId: z.string(),
  /** The `service_credit` of the free credit, when the top-up earned some. */
  freeCreditTransactionId: z.string().nullable(),
  amount: z.number(),
  freeCredit: z.number(),
  subTotal: z.number(),
  tax: z.number(),
  total: z.number(),
  /** The prepaid balance after the top-up and its free credit. */
  balance: z.number(),
  accountReactivated: z.boolean(),
});
export type TopUpResponse = z.infer<typeof TopUpResponseSchema>;

export const PayTransactionRequestSchema = PaymentSourceSchema.superRefine(exactlyOneSource);
export type PayTransactionRequest = z.infer<typeof PayTransactionRequestSchema>;

export const PayTransactionResponseSchema = z.object({
  transactionId: z.string(),
  status: z.literal('paid'),
  paidAmount: z.number(),
  accountReactivated: z.boolean(),
});
export type PayTransactionResponse = z.infer<typeof PayTransactionResponseSchema>;

/** The card provider's client configuration (§3): what the browser needs to collect a card. */
export const PaymentGatewayConfigurationSchema = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  publicKey: z.string(),
  siteSubdomain: z.string(),
  /** Where the sandbox's card form sends card data to be tokenised (the sandbox only). */
  tokenizeUrl: z.string().nullable(),
});
export type PaymentGatewayConfiguration = z.infer<typeof PaymentGatewayConfigurationSchema>;

export interface TopUpSummary {
  amountCents: number;
  freeCreditCents: number;
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
}

/** USD with at most 2 decimals as cents. */
export function usdToWholeCents(amount: number): number {
  return Math.round(amount * 100);
}

/**
 * The top-up's order summary (§5): free credit from the highest tier whose start is at or below the
 * amount, only with the organisation's free-credit flag; subtotal = amount − free credit; tax =
 * subtotal × the country's rate rounded up to the cent; total = subtotal + tax. Both the payment page
 * and the server compute it with this, in whole cents.
 */
export function topUpSummary({
  amount,
  tiers,
  freeCreditEnabled,
  taxRatePercent,
}: {
  amount: number;
  tiers: readonly FreeCreditTier[];
  freeCreditEnabled: boolean;
  taxRatePercent: number;
}): TopUpSummary {
  const amountCents = usdToWholeCents(amount);
  const tier = freeCreditEnabled
    ? [...tiers]
        .filter((candidate) => usdToWholeCents(candidate.start) <= amountCents)
        .sort((a, b) => b.start - a.start)[0]
    : undefined;
  const freeCreditCents = Math.min(amountCents, tier ? usdToWholeCents(tier.credit) : 0);
  const subtotalCents = amountCents - freeCreditCents;
  const rateBasisPoints = Math.round(taxRatePercent * 100);
  // Integers below 2^53 divide exactly enough that ceil rounds up only what has a remainder.
  const taxCents = Math.ceil((subtotalCents * rateBasisPoints) / 10_000);
  return { amountCents, freeCreditCents, subtotalCents, taxCents, totalCents: subtotalCents + taxCents };
}

/** The country's rate from the tax table, or its default rate. */
export function taxRateOf(rates: { defaultRate: number; rates: Record<string, number> }, country: string) {
  return rates.rates[country] ?? rates.defaultRate;
}
