import {
  NO_STATE_CODE,
  vatOptionOf,
  type Account,
  type BillingFormSchema,
  type Subdivision,
} from '@portal/contracts';
import type { z } from 'zod';

export type BillingFormValues = z.input<typeof BillingFormSchema>;

/** The billing form filled from the account (§3: vatOption from whether a VAT number is kept). */
export function billingFormValuesOf(account: Account): BillingFormValues {
  return {
    organization: account.organization,
    firstName: account.firstName,
    lastName: account.lastName,
    billingName: account.billingName,
    billingAddress: account.billingAddress,
    billingAddress2: account.billingAddress2,
    billingCountry: account.billingCountry,
    billingState: account.billingState,
    billingCity: account.billingCity,
    billingZipCode: account.billingZipCode,
    vatNumber: account.vatNumber,
    vatOption: vatOptionOf(account),
  };
}

export interface StateOption {
  value: string;
  label: string;
}

/** A country's states to choose from; a country without any offers the one 'no state' option NA (§5). */
export function stateOptionsOf(subdivisions: readonly Subdivision[], noStateLabel: string): StateOption[] {
  return subdivisions.length === 0
    ? [{ value: NO_STATE_CODE, label: noStateLabel }]
    : subdivisions.map(({ code, name }) => ({ value: code, label: name }));
}

/**
 * The billing fields can be changed only while the account is active (§5 "disabled unless a
 * particular status"; the API refuses the update otherwise, decision 005).
 */
export function canEditBillingInformation(account: Pick<Account, 'accountStatus'>): boolean {
  return account.accountStatus === 'active';
}
