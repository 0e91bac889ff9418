import {
  CARD_NAME_MAX_LENGTH,
  CARD_NOT_SUPPORTED_MESSAGE,
  CARD_TYPE_LABELS,
  type CardType,
} from '@portal/contracts';
import { z } from 'zod';
import { CODE_WORDING } from '../../lib/api-error';
import { isRecord } from '../../lib/is-record';
import type { TranslationKey } from '../../lib/i18n';

/*
 * The card form's rules (§5: card number, month, year and CVC required; first and last name at most
 * 250). The card goes from the browser to the gateway's tokeniser and never to the portal API, so
 * these rules live here rather than in the contracts.
 */

const key = (k: TranslationKey) => k;

/** The longest card numbers (ISO/IEC 7812) have 19 digits, the shortest in use 12. */
const CARD_NUMBER_MAX_DIGITS = 19;

export const digitsOf = (value: string) => value.replace(/\D/g, '');

const cardName = z.string().trim().max(CARD_NAME_MAX_LENGTH, key('payment.card.name.tooLong'));

export const CardFormSchema = z.object({
  number: z
    .string()
    .transform(digitsOf)
    .pipe(
      z
        .string()
        .min(1, key('payment.card.number.required'))
        .regex(/^\d{12,19}$/, key('payment.card.number.invalid')),
    ),
  expMonth: z.string().regex(/^(0[1-9]|1[0-2])$/, key('payment.card.expMonth.required')),
  expYear: z.string().regex(/^\d{4}$/, key('payment.card.expYear.required')),
  cvc: z
    .string()
    .trim()
    .min(1, key('payment.card.cvc.required'))
    .regex(/^\d{3,4}$/, key('payment.card.cvc.invalid')),
  firstName: cardName,
  lastName: cardName,
});
export type CardFormValues = z.input<typeof CardFormSchema>;
export type CardForm = z.output<typeof CardFormSchema>;
export type CardField = keyof CardFormValues;

export const EMPTY_CARD_FORM: CardFormValues = {
  number: '',
  expMonth: '',
  expYear: '',
  cvc: '',
  firstName: '',
  lastName: '',
};

/** The brand a number's first digits name, among those the portal takes; null for any other. */
export function cardBrandOf(number: string): CardType | null {
  const digits = digitsOf(number);
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'master';
  if (/^3[47]/.test(digits)) return 'american_express';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  return null;
}

/** The brand's label shown beside the number as it is typed, or nothing until the number says. */
export function cardBrandHint(number: string): string | null {
  const brand = cardBrandOf(number);
  return brand ? CARD_TYPE_LABELS[brand] : null;
}

/** The number as typed, in groups as printed on the card: 4-6-5 for AMEX, fours for the others. */
export function formatCardNumber(input: string): string {
  const digits = digitsOf(input).slice(0, CARD_NUMBER_MAX_DIGITS);
  const groups =
    cardBrandOf(digits) === 'american_express'
      ? [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10)]
      : (digits.match(/.{1,4}/g) ?? []);
  return groups.filter(Boolean).join(' ');
}

export const EXPIRY_MONTHS = Array.from({ length: 12 }, (_, index) => String(index + 1).padStart(2, '0'));

/** The years a card may expire in: this one and the next 20 (a card is valid for at most about 20 years). */
export function expiryYears(now: Date): string[] {
  const first = now.getFullYear();
  return Array.from({ length: 21 }, (_, index) => String(first + index));
}

/** What the sandbox tokeniser is sent: the card, and the name on it as one text. */
export interface SandboxCardRequest {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  name: string;
}

export function sandboxCardRequest(card: CardForm): SandboxCardRequest {
  return {
    number: card.number,
    expMonth: Number(card.expMonth),
    expYear: Number(card.expYear),
    cvc: card.cvc,
    name: [card.firstName, card.lastName].filter(Boolean).join(' '),
  };
}

/** The tokeniser's field names and the form's; the name is one field there and two here. */
const TOKENIZER_FIELDS: Readonly<Record<string, CardField>> = {
  number: 'number',
  expMonth: 'expMonth',
  exp_month: 'expMonth',
  expYear: 'expYear',
  exp_year: 'expYear',
  cvc: 'cvc',
};

export interface CardRefusal {
  /** The form's field it concerns, or null for the card as a whole ('Your card is not supported.'). */
  field: CardField | null;
  message: string;
}

/** The tokeniser's texts come without codes: 'Your card is not supported.' gets the portal's wording (§8). */
const refusalOf = (field: unknown, message: string): CardRefusal => ({
  field: typeof field === 'string' ? (TOKENIZER_FIELDS[field] ?? null) : null,
  message: message === CARD_NOT_SUPPORTED_MESSAGE ? (CODE_WORDING.CARD_NOT_SUPPORTED ?? message) : message,
});

/**
 * What a tokeniser's refusal says (§8: the card token error may be a list or a string): a list of
 * `{field, message}` or of texts, one text, `{error: {message, param}}`, or an `error` or `message`
 * text; something the form can show whatever the shape, a card the portal does not take in the
 * portal's words.
 */
export function cardRefusalsOf(body: unknown): CardRefusal[] {
  if (typeof body === 'string') return body.trim() ? [refusalOf(null, body.trim())] : [];
  if (!isRecord(body)) return [];
  const { errors } = body;
  if (Array.isArray(errors))
    return errors.flatMap((entry: unknown) => {
      if (typeof entry === 'string') return [refusalOf(null, entry)];
      if (isRecord(entry) && typeof entry.message === 'string')
        return [refusalOf(entry.field, entry.message)];
      return [];
    });
  // A gateway's error object: { error: { code, message, param } }.
  if (isRecord(body.error) && typeof body.error.message === 'string')
    return [refusalOf(body.error.param, body.error.message)];
  const text = [errors, body.error, body.message].find((value) => typeof value === 'string');
  return typeof text === 'string' ? [refusalOf(body.field, text)] : [];
}
