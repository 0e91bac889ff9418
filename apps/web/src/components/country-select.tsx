import { Select } from '@mantine/core';
import type { Country } from '@portal/contracts';
import type { Ref } from 'react';
import { useTranslation } from '../lib/i18n';

interface CountrySelectProps {
  countries: Country[] | undefined;
  /** The list could not be loaded: the field says so. */
  loadFailed: boolean;
  value: string | undefined;
  onChange: (code: string) => void;
  onBlur: () => void;
  ref: Ref<HTMLInputElement>;
  error: string | undefined;
  /** The country cannot be changed here; `description` says why. */
  disabled?: boolean;
  description?: string;
}

/** The billing country, searched by name (the organisation setup and the billing information forms). */
export function CountrySelect({
  countries,
  loadFailed,
  value,
  onChange,
  onBlur,
  ref,
  error,
  disabled,
  description,
}: CountrySelectProps) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('setup.country')}
      placeholder={t('setup.countryPlaceholder')}
      data={countries ?? []}
      searchable
      nothingFoundMessage={t('setup.noCountry')}
      allowDeselect={false}
      value={value || null}
      onChange={(code) => onChange(code ?? '')}
      onBlur={onBlur}
      ref={ref}
      error={error ?? (loadFailed ? t('setup.countriesFailed') : undefined)}
      disabled={disabled}
      description={description}
      // Beneath the field, so it stays level with the field beside it in the form's grid.
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    />
  );
}
