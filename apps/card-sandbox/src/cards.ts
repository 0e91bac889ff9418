import { passesLuhn } from '@portal/contracts';

/** Card brands as the sandbox detects them from the number. */
export const CARD_BRANDS = [
  'visa',
  'master',
  'american_express',
  'discover',
  'jcb',
  'diners',
  'unionpay',
  'unknown',
] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/**
 * What a test number does beyond being a valid card: `none` for every number not listed in
 * TEST_CARD_BEHAVIOURS (it succeeds), otherwise the refusal it is known for.
 */
export type CardBehaviour = 'none' | 'card_declined' | 'insufficient_funds' | 'expired_card';

/** The sandbox's test numbers that are refused, and how. */
export const TEST_CARD_BEHAVIOURS: Readonly<Record<string, Exclude<CardBehaviour, 'none'>>> = {
  // Declined always: when the card is saved (the $0 verification) and when it is charged.
  '4000000000000002': 'card_declined',
  // Saved, but every charge is refused for insufficient funds.
  '4000000000009995': 'insufficient_funds',
  // Saved, but every charge is refused as expired (whatever expiry was typed).
  '4000000000000069': 'expired_card',
};

/** A card as the sandbox keeps it: never the whole number, never the security code. */
export interface CardSummary {
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface CardDetails extends CardSummary {
  behaviour: CardBehaviour;
}

export const CARD_MESSAGES = {
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'Your card number is invalid.',
  expMonthInvalid: "Your card's expiration month is invalid.",
  expYearInvalid: "Your card's expiration year is invalid.",
  expired: 'Your card has expired.',
  cvcInvalid: "Your card's security code is invalid.",
  nameInvalid: "The cardholder's name is invalid.",
} as const;

/** The refusal messages of a charge or a saved card, word for word as a card network's gateway gives them. */
export const REFUSAL_MESSAGES: Record<Exclude<CardBehaviour, 'none'>, string> = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
};

interface BrandRule {
  brand: Exclude<CardBrand, 'unknown'>;
  matches: (digits: string) => boolean;
  lengths: readonly number[];
}

const between = (digits: string, size: number, low: number, high: number) => {
  const prefix = Number(digits.slice(0, size));
  return digits.length >= size && prefix >= low && prefix <= high;
};
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

// Order matters only where ranges could overlap: none of these do.
const BRAND_RULES: readonly BrandRule[] = [
  { brand: 'visa', matches: (d) => d.startsWith('4'), lengths: [13, 16, 19] },
  {
    brand: 'master',
    matches: (d) => between(d, 2, 51, 55) || between(d, 4, 2221, 2720),
    lengths: [16],
  },
  { brand: 'american_express', matches: (d) => /^3[47]/.test(d), lengths: [15] },
  {
    brand: 'discover',
    matches: (d) => d.startsWith('6011') || d.startsWith('65') || between(d, 3, 644, 649),
    lengths: range(16, 19),
  },
  { brand: 'jcb', matches: (d) => between(d, 4, 3528, 3589), lengths: range(16, 19) },
  { brand: 'diners', matches: (d) => d.startsWith('36') || between(d, 3, 300, 305), lengths: range(14, 19) },
  { brand: 'unionpay', matches: (d) => d.startsWith('62'), lengths: range(16, 19) },
];
const UNKNOWN_LENGTHS = range(12, 19);

/** The brand a number (digits only) belongs to, from its first digits. */
export function detectBrand(digits: string): CardBrand {
  return BRAND_RULES.find((rule) => rule.matches(digits))?.brand ?? 'unknown';
}

function lengthsOf(brand: CardBrand): readonly number[] {
  return BRAND_RULES.find((rule) => rule.brand === brand)?.lengths ?? UNKNOWN_LENGTHS;
}

/** The Luhn check every card number passes; in the contracts, as the portal's audit log uses it too. */
export { passesLuhn };

export interface FieldError {
  field: 'number' | 'expMonth' | 'expYear' | 'cvc' | 'name';
  message: string;
}

export interface CardInput {
  number: unknown;
  expMonth: unknown;
  expYear: unknown;
  cvc: unknown;
  name?: unknown;
}

/** A whole number given as a number or as digits (a form field's text). */
function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\d{1,4}$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

function checkNumber(value: unknown): { digits?: string; error?: string } {
  if (typeof value !== 'string') return { error: CARD_MESSAGES.numberIncomplete };
  // People type cards in groups: spaces and dashes between the digits are allowed.
  const digits = value.replace(/[\s-]/g, '');
  if (digits === '') return { error: CARD_MESSAGES.numberIncomplete };
  if (!/^\d+$/.test(digits)) return { error: CARD_MESSAGES.numberInvalid };
  const lengths = lengthsOf(detectBrand(digits));
  if (digits.length > Math.max(...lengths)) return { error: CARD_MESSAGES.numberInvalid };
  if (!lengths.includes(digits.length)) return { error: CARD_MESSAGES.numberIncomplete };
  if (!passesLuhn(digits)) return { error: CARD_MESSAGES.numberInvalid };
  return { digits };
}

/** How far ahead an expiry year may be: cards are issued for a few years, never fifty. */
const MAX_YEARS_AHEAD = 50;

/**
 * Checks what the browser sent, as a card network's tokeniser does: the number (digits, the
 * brand's length, Luhn), the expiry (month 1–12, a two- or four-digit year, not before this UTC
 * month) and the security code (4 digits for AMEX, 3 otherwise). Answers the card or every
 * field's error.
 */
export function checkCard(input: CardInput, now: Date): { card: CardDetails } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const number = checkNumber(input.number);
  if (number.error) errors.push({ field: 'number', message: number.error });

  const month = wholeNumber(input.expMonth);
  const monthValid = month !== undefined && month >= 1 && month <= 12;
  if (!monthValid) errors.push({ field: 'expMonth', message: CARD_MESSAGES.expMonthInvalid });

  const typedYear = wholeNumber(input.expYear);
  const year = typedYear !== undefined && typedYear < 100 ? 2000 + typedYear : typedYear;
  const currentYear = now.getUTCFullYear();
  if (year === undefined || year < 2000 || year > currentYear + MAX_YEARS_AHEAD) {
    errors.push({ field: 'expYear', message: CARD_MESSAGES.expYearInvalid });
  } else if (year < currentYear) {
    errors.push({ field: 'expYear', message: CARD_MESSAGES.expired });
  } else if (monthValid && hasExpired({ expMonth: month, expYear: year }, now)) {
    errors.push({ field: 'expMonth', message: CARD_MESSAGES.expired });
  }

  const brand = number.digits ? detectBrand(number.digits) : undefined;
  const cvcLength = brand === 'american_express' ? 4 : 3;
  if (typeof input.cvc !== 'string' || !new RegExp(`^\\d{${cvcLength}}$`).test(input.cvc.trim())) {
    errors.push({ field: 'cvc', message: CARD_MESSAGES.cvcInvalid });
  }
  if (
    input.name !== undefined &&
    input.name !== null &&
    (typeof input.name !== 'string' || input.name.length > 200)
  ) {
    errors.push({ field: 'name', message: CARD_MESSAGES.nameInvalid });
  }

  if (errors.length > 0 || !number.digits || !brand || month === undefined || year === undefined)
    return { errors };
  return {
    card: {
      brand,
      last4: number.digits.slice(-4),
      expMonth: month,
      expYear: year,
      behaviour: TEST_CARD_BEHAVIOURS[number.digits] ?? 'none',
    },
  };
}

/** Whether a card's expiry month has ended (cards are valid through the last day of their month, UTC). */
export function hasExpired(card: Pick<CardSummary, 'expMonth' | 'expYear'>, now: Date): boolean {
  const currentYear = now.getUTCFullYear();
  return (
    card.expYear < currentYear || (card.expYear === currentYear && card.expMonth < now.getUTCMonth() + 1)
  );
}

/** Why a card is refused when it is charged, if it is. */
export function chargeRefusal(card: CardDetails, now: Date): Exclude<CardBehaviour, 'none'> | undefined {
  if (card.behaviour !== 'none') return card.behaviour;
  return hasExpired(card, now) ? 'expired_card' : undefined;
}

/** Why a card is refused when it is saved (a $0 verification), if it is. */
export function verificationRefusal(
  card: CardDetails,
  now: Date,
): Exclude<CardBehaviour, 'none'> | undefined {
  if (card.behaviour === 'card_declined') return 'card_declined';
  return hasExpired(card, now) ? 'expired_card' : undefined;
}
