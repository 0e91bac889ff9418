import { describe, expect, it } from 'vitest';
import { TransactionIdParamsSchema, TransactionSchema } from './billing.ts';

const serviceCharge = {
  transactionId: '000000042',
  transactionCreatedAt: '2025-04-01T02:00:00.000Z',
  type: 'service_charge',
  status: 'open',
  amount: 12.34,
  paymentAmount: 0,
  taxAmount: 0,
  taxPercentage: 0,
  freeCreditTransactionId: null,
  notes: '',
  invoiceId: 'INV-000000042',
  invoiceType: 'mau_based',
  billingCycle: '2025-03',
  detail: [{ applicationId: 'app-1', name: 'Chat', invoiceId: 'INV-000000042' }],
};

describe('billing contracts', () => {
  it('reads a transaction as the API answers it', () => {
    expect(TransactionSchema.parse(serviceCharge)).toEqual(serviceCharge);
  });

  it.each([
    { field: 'type', value: 'refund' },
    { field: 'status', value: 'settled' },
    { field: 'transactionId', value: '42' },
    { field: 'billingCycle', value: '2025-13' },
  ])(
    'refuses a transaction whose $field is $value (§4: an unknown type or status is an error)',
    ({ field, value }) => {
      expect(TransactionSchema.safeParse({ ...serviceCharge, [field]: value }).success).toBe(false);
    },
  );

  it.each([
    { id: '000000042', valid: true },
    { id: '42', valid: true },
    { id: '4a', valid: false },
    { id: '', valid: false },
  ])('takes the path id $id: $valid', ({ id, valid }) => {
    expect(TransactionIdParamsSchema.safeParse({ id }).success).toBe(valid);
  });
});
