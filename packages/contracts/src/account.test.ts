import { describe, expect, it } from 'vitest';
import { BillingFormSchema, InitialSetupFormSchema } from './account.ts';
import { billingFormToRequest, vatOptionOf } from './rules.ts';

const filledBillingForm = {
  organization: 'Acme',
  firstName: 'Ann',
  lastName: 'Lee',
  billingName: '',
  billingAddress: '1 Main St',
  billingAddress2: '',
  billingCountry: 'SG',
  billingState: '01',
  billingCity: '',
  billingZipCode: '018989',
  vatOption: 'unregistered' as const,
  vatNumber: '',
};

describe('initial setup form', () => {
  it('requires organization, first and last name', () => {
    const result = InitialSetupFormSchema.safeParse({ organization: ' ', firstName: '', lastName: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path[0])).toEqual(['organization', 'firstName', 'lastName']);
  });
});

describe('billing form', () => {
  it('requires the address fields and leaves address line 2 and city optional', () => {
    const result = BillingFormSchema.safeParse({
      ...filledBillingForm,
      billingAddress: '',
      billingState: '',
      billingZipCode: '',
    });
    expect(result.error?.issues.map((i) => i.path[0])).toEqual([
      'billingAddress',
      'billingState',
      'billingZipCode',
    ]);
    expect(BillingFormSchema.safeParse(filledBillingForm).success).toBe(true);
  });

  it('requires a VAT number only when registered', () => {
    const registered = BillingFormSchema.safeParse({ ...filledBillingForm, vatOption: 'registered' });
    expect(registered.error?.issues.map((i) => i.message)).toEqual(['validation.vatNumber.required']);
    expect(
      BillingFormSchema.safeParse({ ...filledBillingForm, vatOption: 'registered', vatNumber: 'SG123' })
        .success,
    ).toBe(true);
  });

  it('sends no VAT number for an unregistered organisation and derives the option back', () => {
    const request = billingFormToRequest({
      ...filledBillingForm,
      vatOption: 'unregistered',
      vatNumber: 'stale',
    });
    expect(request).not.toHaveProperty('vatOption');
    expect(request.vatNumber).toBe('');
    expect(vatOptionOf({ vatNumber: '' })).toBe('unregistered');
    expect(vatOptionOf({ vatNumber: 'SG123' })).toBe('registered');
  });
});
