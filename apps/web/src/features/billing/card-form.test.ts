import { describe, expect, it } from 'vitest';
import {
  cardBrandHint,
  CardFormSchema,
  cardRefusalsOf,
  EMPTY_CARD_FORM,
  expiryYears,
  formatCardNumber,
  sandboxCardRequest,
} from './card-form';

const filled = {
  number: '4242 4242 4242 4242',
  expMonth: '12',
  expYear: '2030',
  cvc: '123',
  firstName: ' Ada ',
  lastName: 'Lovelace',
};

// The first message of each field, as the form shows it.
const messagesOf = (values: typeof filled) => {
  const result = CardFormSchema.safeParse(values);
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.toReversed().map((issue) => [issue.path[0], issue.message]));
};

describe('the card form (§5)', () => {
  it('requires the number, month, year and CVC, and nothing else', () => {
    expect(messagesOf(EMPTY_CARD_FORM)).toEqual({
      number: 'payment.card.number.required',
      expMonth: 'payment.card.expMonth.required',
      expYear: 'payment.card.expYear.required',
      cvc: 'payment.card.cvc.required',
    });
  });

  it('takes a filled card, without the spaces of the number and with the names trimmed', () => {
    const result = CardFormSchema.parse(filled);
    expect(result.number).toBe('4242424242424242');
    expect(result.firstName).toBe('Ada');
  });

  it('refuses a number of too few digits and a CVC that is not 3 or 4 digits', () => {
    expect(messagesOf({ ...filled, number: '4242 4242', cvc: '12a' })).toEqual({
      number: 'payment.card.number.invalid',
      cvc: 'payment.card.cvc.invalid',
    });
  });

  it('takes names of 250 characters and refuses 251', () => {
    expect(messagesOf({ ...filled, firstName: 'a'.repeat(250), lastName: 'b'.repeat(250) })).toEqual({});
    expect(messagesOf({ ...filled, lastName: 'b'.repeat(251) })).toEqual({
      lastName: 'payment.card.name.tooLong',
    });
  });
});

describe('formatCardNumber', () => {
  it('groups digits by four, drops anything else and stops at 19 digits', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-4242 42')).toBe('4242 4242 42');
    expect(formatCardNumber('1'.repeat(25))).toBe('1111 1111 1111 1111 111');
    expect(formatCardNumber('')).toBe('');
  });

  it('groups an AMEX number 4-6-5 as printed', () => {
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('37828')).toBe('3782 8');
  });
});

describe('cardBrandHint', () => {
  it('names the four brands the portal takes by their labels (§3)', () => {
    expect(cardBrandHint('4242')).toBe('VISA');
    expect(cardBrandHint('5555 5555')).toBe('Mastercard');
    expect(cardBrandHint('2223 0000')).toBe('Mastercard');
    expect(cardBrandHint('3714')).toBe('AMEX');
    expect(cardBrandHint('6011 1111')).toBe('Discover');
    expect(cardBrandHint('6500')).toBe('Discover');
  });

  it('names no brand for others (JCB) or before the number says', () => {
    expect(cardBrandHint('3530 1113 3330 0000')).toBeNull();
    expect(cardBrandHint('')).toBeNull();
  });
});

describe('expiryYears', () => {
  it('offers this year and the next 20', () => {
    const years = expiryYears(new Date(2026, 10, 25));
    expect(years[0]).toBe('2026');
    expect(years).toHaveLength(21);
    expect(years.at(-1)).toBe('2046');
  });
});

describe('sandboxCardRequest', () => {
  it('sends the digits, the expiry as numbers and the names as one', () => {
    expect(sandboxCardRequest(CardFormSchema.parse({ ...filled, expMonth: '03' }))).toEqual({
      number: '4242424242424242',
      expMonth: 3,
      expYear: 2030,
      cvc: '123',
      name: 'Ada Lovelace',
    });
    expect(sandboxCardRequest(CardFormSchema.parse({ ...filled, firstName: '', lastName: '' })).name).toBe(
      '',
    );
  });
});

describe('cardRefusalsOf (§8: the card token error may be a list or a string)', () => {
  it('reads a list of field errors, naming the form field where there is one', () => {
    expect(
      cardRefusalsOf({
        errors: [
          { field: 'number', message: 'Your card number is incorrect.' },
          { field: 'exp_year', message: 'Your card has expired.' },
          { field: 'name', message: 'Too long.' },
        ],
      }),
    ).toEqual([
      { field: 'number', message: 'Your card number is incorrect.' },
      { field: 'expYear', message: 'Your card has expired.' },
      { field: null, message: 'Too long.' },
    ]);
  });

  it('reads a list of texts, one text, or an error or message field', () => {
    expect(cardRefusalsOf({ errors: ['Your card was declined.'] })).toEqual([
      { field: null, message: 'Your card was declined.' },
    ]);
    expect(cardRefusalsOf({ errors: 'Your card was declined.' })).toEqual([
      { field: null, message: 'Your card was declined.' },
    ]);
    expect(cardRefusalsOf({ error: 'Invalid key' })).toEqual([{ field: null, message: 'Invalid key' }]);
    expect(
      cardRefusalsOf({ error: { code: 'invalid_request', message: 'cvc: not allowed', param: 'cvc' } }),
    ).toEqual([{ field: 'cvc', message: 'cvc: not allowed' }]);
    expect(cardRefusalsOf({ message: 'Bad', field: 'cvc' })).toEqual([{ field: 'cvc', message: 'Bad' }]);
    expect(cardRefusalsOf(' Your card was declined. ')).toEqual([
      { field: null, message: 'Your card was declined.' },
    ]);
  });

  it("puts 'Your card is not supported.' in the portal's words, which name the brands it takes", () => {
    expect(cardRefusalsOf({ errors: ['Your card is not supported.'] })).toEqual([
      { field: null, message: 'payment.card.notSupported' },
    ]);
    expect(cardRefusalsOf({ errors: [{ field: 'number', message: 'Your card is not supported.' }] })).toEqual(
      [{ field: 'number', message: 'payment.card.notSupported' }],
    );
  });

  it('reads nothing from an answer without a message', () => {
    expect(cardRefusalsOf(undefined)).toEqual([]);
    expect(cardRefusalsOf('')).toEqual([]);
    expect(cardRefusalsOf({ errors: [42, { field: 'number' }] })).toEqual([]);
  });
});
