/** The query parameters a card payment or a top-up comes back to /billing/:sub with (§2). */
export const TOP_UP_PARAM = 'successTopUp';
export const PAYMENT_PARAM = 'success';

export interface PaymentReturn {
  /** The amount topped up, when the list opens with successTopUp: the top-up success modal shows. */
  topUpAmount: number | null;
  /** Whether the transaction's payment went through, when the list opens with success=true or false. */
  paymentSucceeded: boolean | null;
}

/** What the list's address says about a payment just made; nothing when it came from elsewhere. */
export function paymentReturnOf(search: URLSearchParams): PaymentReturn {
  const topUp = search.get(TOP_UP_PARAM);
  const amount = topUp === null ? NaN : Number(topUp);
  const paid = search.get(PAYMENT_PARAM);
  return {
    topUpAmount: Number.isFinite(amount) ? amount : null,
    paymentSucceeded: paid === null ? null : paid === 'true',
  };
}

/** The address without the payment's parameters, so a reload or going back does not show them again. */
export function withoutPaymentReturn(search: URLSearchParams): URLSearchParams {
  const rest = new URLSearchParams(search);
  rest.delete(TOP_UP_PARAM);
  rest.delete(PAYMENT_PARAM);
  return rest;
}
