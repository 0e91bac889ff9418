import { describe, expect, it } from 'vitest';
import {
  CARD_MESSAGES,
  checkCard,
  chargeRefusal,
  detectBrand,
  hasExpired,
  passesLuhn,
} from '../src/cards.ts';

const NOW = new Date('2026-06-15T12:00:00Z');
const valid = { expMonth: 12, expYear: 2030, cvc: '123' };

describe('the Luhn check', () => {
  it.each([
    '4242424242424242',
    '4000000000000002',
    '4000000000009995',
    '3530111333300000',
    '378282246310005',
    '79927398713',
  ])('passes %s', (digits) => expect(passesLuhn(digits)).toBe(true));
  it.each(['4242424242424241', '4000000000000001', '79927398710', '1', ''])('fails %s', (digits) =>
    expect(passesLuhn(digits)).toBe(false),
  );
});

describe('brand detection', () => {
  it.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'master'],
    ['5105105105105100', 'master'],
    ['2221000000000009', 'master'],
    ['2720990000000007', 'master'],
    ['378282246310005', 'american_express'],
    ['341111111111111', 'american_express'],
    ['6011111111111117', 'discover'],
    ['6500000000000002', 'discover'],
    ['6445644564456445', 'discover'],
    ['3530111333300000', 'jcb'],
    ['3528000000000007', 'jcb'],
    ['3589000000000003', 'jcb'],
    ['36227206271667', 'diners'],
    ['30569309025904', 'diners'],
    ['6200000000000005', 'unionpay'],
    ['2220990000000001', 'unknown'],
    ['2721000000000004', 'unknown'],
    ['3527000000000000', 'unknown'],
    ['3590000000000000', 'unknown'],
    ['6430000000000000', 'unknown'],
    ['3060000000000000', 'unknown'],
    ['9999999999999995', 'unknown'],
  ])('%s is %s', (digits, brand) => expect(detectBrand(digits)).toBe(brand));
});

describe('checkCard', () => {
  it('answers brand, last 4, expiry and behaviour, never the number', () => {
    const result = checkCard({ number: '4242 4242 4242 4242', ...valid }, NOW);
    expect(result).toEqual({
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, behaviour: 'none' },
    });
  });

  it('knows the test numbers that are refused', () => {
    const behaviour = (number: string) => {
      const result = checkCard({ number, ...valid }, NOW);
      return 'card' in result ? result.card.behaviour : result.errors;
    };
    expect(behaviour('4000 0000 0000 0002')).toBe('card_declined');
    expect(behaviour('4000-0000-0000-9995')).toBe('insufficient_funds');
    expect(behaviour('4000000000000069')).toBe('expired_card');
    expect(behaviour('3530 1113 3330 0000')).toBe('none');
  });

  it.each([
    ['', CARD_MESSAGES.numberIncomplete],
    ['4242 4242 4242', CARD_MESSAGES.numberIncomplete],
    ['3782 822463 1000', CARD_MESSAGES.numberIncomplete],
    ['4242 4242 4242 4241', CARD_MESSAGES.numberInvalid],
    ['4242 4242 4242 4242 4242', CARD_MESSAGES.numberInvalid],
    ['4242-4242-abcd-4242', CARD_MESSAGES.numberInvalid],
    ['99999999999', CARD_MESSAGES.numberIncomplete],
  ])('refuses the number %j: %s', (number, message) => {
    expect(checkCard({ number, ...valid }, NOW)).toEqual({ errors: [{ field: 'number', message }] });
  });

  it('refuses a number that is not text', () => {
    expect(checkCard({ number: 4242424242424242, ...valid }, NOW)).toEqual({
      errors: [{ field: 'number', message: CARD_MESSAGES.numberIncomplete }],
    });
  });

  it('takes months 1 to 12, as numbers or digits, and two- or four-digit years', () => {
    expect(
      checkCard({ number: '4242424242424242', expMonth: '1', expYear: '31', cvc: '123' }, NOW),
    ).toMatchObject({
      card: { expMonth: 1, expYear: 2031 },
    });
    for (const expMonth of [0, 13, -1, 1.5, 'June', '', undefined]) {
      expect(checkCard({ number: '4242424242424242', ...valid, expMonth }, NOW), String(expMonth)).toEqual({
        errors: [{ field: 'expMonth', message: CARD_MESSAGES.expMonthInvalid }],
      });
    }
    for (const expYear of [2077, 1999, 'soon', undefined]) {
      expect(checkCard({ number: '4242424242424242', ...valid, expYear }, NOW), String(expYear)).toEqual({
        errors: [{ field: 'expYear', message: CARD_MESSAGES.expYearInvalid }],
      });
    }
  });

  it('refuses an expiry before this UTC month, and takes this month', () => {
    const at = (expMonth: number, expYear: number, now = NOW) =>
      checkCard({ number: '4242424242424242', expMonth, expYear, cvc: '123' }, now);
    expect(at(6, 2026)).toHaveProperty('card');
    expect(at(5, 2026)).toEqual({ errors: [{ field: 'expMonth', message: 'Your card has expired.' }] });
    expect(at(12, 2025)).toEqual({ errors: [{ field: 'expYear', message: 'Your card has expired.' }] });
    // Midnight UTC on the 1st of July: a June card has expired, whatever the local time zone says.
    expect(at(6, 2026, new Date('2026-07-01T00:00:00Z'))).toHaveProperty('errors');
    expect(at(6, 2026, new Date('2026-06-30T23:59:59Z'))).toHaveProperty('card');
  });

  it('wants 3 digits of security code, 4 for AMEX', () => {
    const cvc = (number: string, code: unknown) => checkCard({ number, ...valid, cvc: code }, NOW);
    expect(cvc('4242424242424242', '123')).toHaveProperty('card');
    expect(cvc('378282246310005', '1234')).toHaveProperty('card');
    const invalid = { errors: [{ field: 'cvc', message: "Your card's security code is invalid." }] };
    for (const code of ['12', '1234', '12a', '', 123, undefined])
      expect(cvc('4242424242424242', code)).toEqual(invalid);
    for (const code of ['123', '12345']) expect(cvc('378282246310005', code)).toEqual(invalid);
  });

  it('answers every field in error at once', () => {
    const result = checkCard({ number: '4242', expMonth: 13, expYear: 2020, cvc: 'x', name: 7 }, NOW);
    expect(result).toEqual({
      errors: [
        { field: 'number', message: CARD_MESSAGES.numberIncomplete },
        { field: 'expMonth', message: CARD_MESSAGES.expMonthInvalid },
        { field: 'expYear', message: CARD_MESSAGES.expired },
        { field: 'cvc', message: CARD_MESSAGES.cvcInvalid },
        { field: 'name', message: CARD_MESSAGES.nameInvalid },
      ],
    });
  });
});

describe('refusals when charged', () => {
  const card = { brand: 'visa', last4: '4242', expMonth: 6, expYear: 2026 } as const;
  it('refuses the test behaviours and a card whose month has ended', () => {
    expect(chargeRefusal({ ...card, behaviour: 'none' }, NOW)).toBeUndefined();
    expect(chargeRefusal({ ...card, behaviour: 'insufficient_funds' }, NOW)).toBe('insufficient_funds');
    expect(chargeRefusal({ ...card, behaviour: 'none' }, new Date('2026-07-01T00:00:00Z'))).toBe(
      'expired_card',
    );
    expect(hasExpired(card, NOW)).toBe(false);
  });
});
