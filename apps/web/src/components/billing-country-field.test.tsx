// @vitest-environment jsdom
import { zodResolver } from '@hookform/resolvers/zod';
import type { Country } from '@portal/contracts';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BillingCountryField } from './billing-country-field';
import { renderSignedInPart } from './render-for-test';

afterEach(cleanup);

const COUNTRIES: Country[] = [
  { label: 'Singapore', value: 'SG' },
  { label: 'United States', value: 'US' },
];

const FormSchema = z.object({ billingCountry: z.string().min(1, 'validation.billingCountry.required') });

/** The field in a form of its own, as the setup and billing forms hold it. */
function CountryForm({
  initial,
  countries,
  onCountryChange,
  lockedReason,
  onSubmit,
}: {
  initial: string;
  countries: { data: Country[] | undefined; isError: boolean };
  onCountryChange?: () => void;
  lockedReason?: string;
  onSubmit?: (values: { billingCountry: string }) => void;
}) {
  const { control, handleSubmit } = useForm({
    resolver: zodResolver(FormSchema),
    defaultValues: { billingCountry: initial },
  });
  return (
    <form onSubmit={handleSubmit((values) => onSubmit?.(values))} noValidate>
      <BillingCountryField
        control={control}
        name="billingCountry"
        countries={countries}
        onCountryChange={onCountryChange}
        lockedReason={lockedReason}
      />
      <button type="submit">Save</button>
    </form>
  );
}

const countryInput = () => screen.getByLabelText('Country', { selector: 'input' }) as HTMLInputElement;

async function choose(label: string) {
  await act(async () => fireEvent.click(countryInput()));
  await act(async () => fireEvent.click(await screen.findByRole('option', { name: label, hidden: true })));
}

// A first render loads Mantine's select, which takes seconds on a busy machine.
describe('the billing country field', { timeout: 30_000 }, () => {
  it("sets the form's country and reports another country chosen, not the same one again", async () => {
    const onCountryChange = vi.fn();
    const onSubmit = vi.fn();
    renderSignedInPart(
      <CountryForm
        initial="SG"
        countries={{ data: COUNTRIES, isError: false }}
        onCountryChange={onCountryChange}
        onSubmit={onSubmit}
      />,
    );
    expect(countryInput().value).toBe('Singapore');
    await choose('Singapore');
    expect(onCountryChange).not.toHaveBeenCalled();
    await choose('United States');
    expect(countryInput().value).toBe('United States');
    expect(onCountryChange).toHaveBeenCalledTimes(1);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(onSubmit).toHaveBeenCalledWith({ billingCountry: 'US' });
  });

  it("shows the form's error for it, and says when the countries could not be loaded", async () => {
    renderSignedInPart(<CountryForm initial="" countries={{ data: COUNTRIES, isError: false }} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(await screen.findByText('Please select a country.')).toBeTruthy();
    cleanup();

    renderSignedInPart(<CountryForm initial="" countries={{ data: undefined, isError: true }} />);
    expect(
      screen.getByText('The list of countries could not be loaded. Reload the page to try again.'),
    ).toBeTruthy();
  });

  it('is disabled with the reason read out with it when the country is fixed', () => {
    renderSignedInPart(
      <CountryForm
        initial="SG"
        countries={{ data: COUNTRIES, isError: false }}
        lockedReason="Fixed for a reason."
      />,
    );
    expect(countryInput().disabled).toBe(true);
    const describedBy = (countryInput().getAttribute('aria-describedby') ?? '').split(' ');
    expect(describedBy.map((id) => document.getElementById(id)?.textContent)).toContain(
      'Fixed for a reason.',
    );
  });
});
