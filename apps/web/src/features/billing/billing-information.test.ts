import { billingFormToRequest, BillingFormSchema, NO_STATE_CODE, type Account } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { billingFormValuesOf, canEditBillingInformation, stateOptionsOf } from './billing-information';

const account = {
  organization: 'Acme Rockets',
  firstName: 'Ada',
  lastName: 'Lovelace',
  billingName: 'Acme Rockets Pte Ltd',
  billingAddress: '1 Launch Road',
  billingAddress2: '',
  billingCountry: 'SG',
  billingState: 'SG-01',
  billingCity: '',
  billingZipCode: '123456',
  vatNumber: '',
  accountStatus: 'active',
} as Account;

describe('billingFormValuesOf', () => {
  it('fills the form from the account, unregistered without a VAT number', () => {
    expect(billingFormValuesOf(account)).toMatchObject({
      organization: 'Acme Rockets',
      billingCountry: 'SG',
      billingState: 'SG-01',
      vatOption: 'unregistered',
    });
  });

  it('is registered with a VAT number, and keeps the billing name it does not show', () => {
    const values = billingFormValuesOf({ ...account, vatNumber: 'SG123' });
    expect(values.vatOption).toBe('registered');
    expect(billingFormToRequest(BillingFormSchema.parse(values))).toMatchObject({
      vatNumber: 'SG123',
      billingName: 'Acme Rockets Pte Ltd',
    });
  });
});

describe('the billing form (§5)', () => {
  const messagesOf = (values: Record<string, string>) => {
    const result = BillingFormSchema.safeParse({ ...billingFormValuesOf(account), ...values });
    return result.success
      ? {}
      : Object.fromEntries(result.error.issues.toReversed().map((issue) => [issue.path[0], issue.message]));
  };

  it('requires organisation, names, address, country, state and zip code, but not line 2 and city', () => {
    expect(
      messagesOf({
        organization: '',
        firstName: ' ',
        lastName: '',
        billingAddress: '',
        billingCountry: '',
        billingState: '',
        billingZipCode: '',
      }),
    ).toEqual({
      organization: 'validation.organization.required',
      firstName: 'validation.firstName.required',
      lastName: 'validation.lastName.required',
      billingAddress: 'validation.billingAddress.required',
      billingCountry: 'validation.billingCountry.required',
      billingState: 'validation.billingState.required',
      billingZipCode: 'validation.billingZipCode.required',
    });
  });

  it('requires a VAT number only when registered; unregistered sends none', () => {
    expect(messagesOf({ vatOption: 'registered', vatNumber: '' })).toEqual({
      vatNumber: 'validation.vatNumber.required',
    });
    expect(messagesOf({ vatOption: 'unregistered', vatNumber: '' })).toEqual({});
    const form = BillingFormSchema.parse({
      ...billingFormValuesOf(account),
      vatOption: 'unregistered',
      vatNumber: 'X',
    });
    expect(billingFormToRequest(form).vatNumber).toBe('');
  });
});

describe('stateOptionsOf', () => {
  it("offers a country's states by name, valued by code", () => {
    expect(stateOptionsOf([{ name: 'Central Singapore', code: 'SG-01' }], 'No state')).toEqual([
      { value: 'SG-01', label: 'Central Singapore' },
    ]);
  });

  it("offers one 'no state' option, NA, for a country without states", () => {
    expect(stateOptionsOf([], 'No state')).toEqual([{ value: NO_STATE_CODE, label: 'No state' }]);
    expect(NO_STATE_CODE).toBe('NA');
  });
});

describe('canEditBillingInformation', () => {
  it('only while the account is active', () => {
    expect(canEditBillingInformation({ accountStatus: 'active' })).toBe(true);
    expect(canEditBillingInformation({ accountStatus: 'inactive' })).toBe(false);
  });
});
