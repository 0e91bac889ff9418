import { describe, expect, it } from 'vitest';
import { paymentReturnOf, withoutPaymentReturn } from './payment-return';

describe('paymentReturnOf', () => {
  it('reads the top-up amount and the payment outcome', () => {
    expect(paymentReturnOf(new URLSearchParams('successTopUp=1000'))).toEqual({
      topUpAmount: 1000,
      paymentSucceeded: null,
    });
    expect(paymentReturnOf(new URLSearchParams('success=true'))).toEqual({
      topUpAmount: null,
      paymentSucceeded: true,
    });
    expect(paymentReturnOf(new URLSearchParams('success=false')).paymentSucceeded).toBe(false);
  });

  it('finds nothing on an ordinary visit or in a top-up amount that is not a number', () => {
    expect(paymentReturnOf(new URLSearchParams(''))).toEqual({ topUpAmount: null, paymentSucceeded: null });
    expect(paymentReturnOf(new URLSearchParams('successTopUp=lots')).topUpAmount).toBeNull();
  });
});

describe('withoutPaymentReturn', () => {
  it('drops the payment parameters and keeps the rest', () => {
    const rest = withoutPaymentReturn(new URLSearchParams('successTopUp=50&success=true&page=2'));
    expect(rest.toString()).toBe('page=2');
  });
});
