// @vitest-environment jsdom
import type { Account, BillingCountryLock } from '@portal/contracts';
import { QueryClient } from '@tanstack/react-query';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { countriesQueryOptions } from '../../../api/countries/list-countries';
import { renderSignedInPart } from '../../../components/render-for-test';
import { setAccount } from '../../../lib/account';
import { addMessages } from '../../../lib/i18n';
import { enPayments } from '../../../locales/en-payments';
import { BILLING_COUNTRY_LOCK_QUERY_KEY } from '../api/get-billing-country-lock';
import { SUBDIVISIONS_QUERY_KEY } from '../api/list-subdivisions';
import { BillingInformationForm } from './billing-information-form';

afterEach(cleanup);

const account = {
  organization: 'Acme Rockets',
  firstName: 'Ada',
  lastName: 'Lovelace',
  billingName: '',
  billingAddress: '1 Launch Road',
  billingAddress2: '',
  billingCountry: 'SG',
  billingState: '01',
  billingCity: '',
  billingZipCode: '123456',
  vatNumber: '',
  accountStatus: 'active',
} as Account;

const HINT = 'Fixed since your first payment, as it sets your tax. Contact support to change it.';

/** The form on an active account, with the answers it would fetch already there. */
function renderForm(lock: BillingCountryLock) {
  addMessages(enPayments);
  setAccount(account);
  const queryClient = new QueryClient();
  queryClient.setQueryData(countriesQueryOptions.queryKey, [
    { label: 'Singapore', value: 'SG' },
    { label: 'United States', value: 'US' },
  ]);
  queryClient.setQueryData([...SUBDIVISIONS_QUERY_KEY, 'SG'], [{ name: 'Central Singapore', code: '01' }]);
  queryClient.setQueryData(BILLING_COUNTRY_LOCK_QUERY_KEY, lock);
  return renderSignedInPart(<BillingInformationForm />, queryClient);
}

// A first render loads Mantine's form parts, which takes seconds on a busy machine.
describe('the billing information form', { timeout: 30_000 }, () => {
  it('shows a country fixed by a payment disabled, says why, and leaves the other fields open', () => {
    renderForm({ billingCountry: 'SG', locked: true });
    const country = screen.getByLabelText('Country', { selector: 'input' }) as HTMLInputElement;
    expect(country.value).toBe('Singapore');
    expect(country.disabled).toBe(true);
    // Read out with the field, not only shown beside it.
    const describedBy = (country.getAttribute('aria-describedby') ?? '').split(' ');
    expect(describedBy.map((id) => document.getElementById(id)?.textContent)).toContain(HINT);
    expect((screen.getByLabelText('Billing address') as HTMLInputElement).disabled).toBe(false);
    expect(
      (screen.getByLabelText('State or province', { selector: 'input' }) as HTMLInputElement).disabled,
    ).toBe(false);
  });

  it('offers the country for change before any payment', () => {
    renderForm({ billingCountry: 'SG', locked: false });
    const country = screen.getByLabelText('Country', { selector: 'input' }) as HTMLInputElement;
    expect(country.disabled).toBe(false);
    expect(screen.queryByText(HINT)).toBeNull();
  });
});
