import { Select } from '@mantine/core';
import type { Country } from '@portal/contracts';
import { useController, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import { fieldError } from '../lib/form-errors';
import { useTranslation } from '../lib/i18n';

interface BillingCountryFieldProps<Form extends FieldValues, Submitted> {
  control: Control<Form, unknown, Submitted>;
  name: FieldPathByValue<Form, string | undefined>;
  /** The country choices as they load (GET /api/v1/utils/countries): a failure is said in the field. */
  countries: { data: Country[] | undefined; isError: boolean };
  /** Another country was chosen (the billing form then clears the state, which belongs to the old one). */
  onCountryChange?: () => void;
  /** Why the country cannot be changed here (decision 030: fixed by the first payment); absent while it can. */
  lockedReason?: string;
}

/**
 * The billing country of an organisation, searched by name: the same field in the organisation
 * setup and the billing information forms, bound to the form's `name`, with its error.
 */
export function BillingCountryField<Form extends FieldValues, Submitted>({
  control,
  name,
  countries,
  onCountryChange,
  lockedReason,
}: BillingCountryFieldProps<Form, Submitted>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const value = field.value as string | undefined;
  return (
    <Select
      label={t('setup.country')}
      placeholder={t('setup.countryPlaceholder')}
      data={countries.data ?? []}
      searchable
      nothingFoundMessage={t('setup.noCountry')}
      allowDeselect={false}
      value={value || null}
      onChange={(code) => {
        if (!code || code === value) return;
        field.onChange(code);
        onCountryChange?.();
      }}
      onBlur={field.onBlur}
      ref={field.ref}
      error={fieldError(fieldState.error) ?? (countries.isError ? t('setup.countriesFailed') : undefined)}
      disabled={lockedReason !== undefined}
      description={lockedReason}
      // Beneath the field, so it stays level with the field beside it in the form's grid.
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    />
  );
}
