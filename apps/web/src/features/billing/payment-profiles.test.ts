import type { PaymentProfile } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { describeCard, initialCardSource } from './payment-profiles';

const card = (id: string, overrides: Partial<PaymentProfile> = {}): PaymentProfile => ({
  id,
  cardType: 'visa',
  maskedCardNumber: '**** **** **** 4242',
  expirationMonth: 3,
  expirationYear: 2030,
  defaultPayment: false,
  ...overrides,
});

describe('initialCardSource', () => {
  it('starts with the default card', () => {
    expect(initialCardSource([card('a'), card('b', { defaultPayment: true })])).toEqual({
      kind: 'saved',
      profileId: 'b',
    });
  });

  it('starts with a new card when no card is the default, none is saved, or they are not known', () => {
    expect(initialCardSource([card('a'), card('b')])).toEqual({ kind: 'new' });
    expect(initialCardSource([])).toEqual({ kind: 'new' });
    expect(initialCardSource(undefined)).toEqual({ kind: 'new' });
  });
});

describe('describeCard', () => {
  it("names the brand by its label (§3), the number's last 4 digits and the expiry as MM/YYYY", () => {
    expect(describeCard(card('a'))).toEqual({ brand: 'VISA', last4: '4242', expiry: '03/2030' });
    expect(
      describeCard(
        card('b', {
          cardType: 'american_express',
          maskedCardNumber: '***********0005',
          expirationMonth: 11,
          expirationYear: 2031,
        }),
      ),
    ).toEqual({ brand: 'AMEX', last4: '0005', expiry: '11/2031' });
    expect(describeCard(card('c', { cardType: 'master' })).brand).toBe('Mastercard');
    expect(describeCard(card('d', { cardType: 'discover' })).brand).toBe('Discover');
  });
});
