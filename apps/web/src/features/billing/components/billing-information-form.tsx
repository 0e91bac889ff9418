import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Card,
  Fieldset,
  Group,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { billingFormToRequest, BillingFormSchema, type BillingForm } from '@portal/contracts';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useUpdateAccount } from '../../../api/accounts/update-account';
import { countriesQueryOptions } from '../../../api/countries/list-countries';
import { BillingCountryField } from '../../../components/billing-country-field';
import { useSignedInAccount } from '../../../lib/account';
import { ApiError, errorText, isToastedNetworkFailure } from '../../../lib/api-error';
import { applyFieldErrors, fieldError } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n';
import { showToast, toastError } from '../../../lib/toasts';
import { useBillingCountryLock } from '../api/get-billing-country-lock';
import { useSubdivisions } from '../api/list-subdivisions';
import {
  billingFormValuesOf,
  canEditBillingInformation,
  stateOptionsOf,
  type BillingFormValues,
} from '../billing-information';

const SERVER_FIELDS = [
  'organization',
  'firstName',
  'lastName',
  'billingAddress',
  'billingAddress2',
  'billingCountry',
  'billingState',
  'billingCity',
  'billingZipCode',
  'vatNumber',
] as const;

/**
 * The billing information form (§5): organisation, names, address, country then its states ('no
 * state' NA for a country without any), city, zip, and VAT registration with its number. Changing
 * the country clears the state, unregistered clears the VAT number; it saves only after a change,
 * and only while the account is active. Once a card payment has fixed the country (it sets the
 * tax, decision 030) the country is shown but not offered for change.
 */
export function BillingInformationForm() {
  const { t } = useTranslation();
  const account = useSignedInAccount();
  const editable = canEditBillingInformation(account);
  const countries = useQuery(countriesQueryOptions);
  const update = useUpdateAccount();
  const countryLock = useBillingCountryLock();
  const countryLocked = countryLock.data?.locked === true;
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    reset,
    formState: { errors, isDirty },
  } = useForm<BillingFormValues, unknown, BillingForm>({
    resolver: zodResolver(BillingFormSchema),
    defaultValues: billingFormValuesOf(account),
  });
  const country = useWatch({ control, name: 'billingCountry' });
  const vatOption = useWatch({ control, name: 'vatOption' });
  const subdivisions = useSubdivisions(country);

  const save = handleSubmit((values) =>
    update.mutate(billingFormToRequest(values), {
      onSuccess: (updated) => {
        reset(billingFormValuesOf(updated));
        showToast({ color: 'green', message: t('managePayment.billing.saved') });
      },
      onError: (error) => {
        // A payment since the form was shown fixed the country: the field says so from now on.
        if (error instanceof ApiError && error.code === 'BILLING_COUNTRY_LOCKED') void countryLock.refetch();
        applyFieldErrors(error, setError, SERVER_FIELDS);
        if (!isToastedNetworkFailure(error)) toastError(errorText(error));
      },
    }),
  );

  return (
    <Stack gap="md" component="section" aria-labelledby="billing-information-title">
      <Title order={2} size="h3" id="billing-information-title">
        {t('managePayment.billing.title')}
      </Title>
      {!editable && (
        <Alert color="yellow" icon={<IconInfoCircle aria-hidden />} role="status">
          {t('managePayment.billing.inactive')}
        </Alert>
      )}
      <Card withBorder padding="lg">
        <form onSubmit={save} noValidate aria-labelledby="billing-information-title">
          <Fieldset variant="unstyled" disabled={!editable}>
            <Stack gap="sm">
              <TextInput
                label={t('setup.organization')}
                autoComplete="organization"
                {...register('organization')}
                error={fieldError(errors.organization)}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <TextInput
                  label={t('setup.firstName')}
                  autoComplete="given-name"
                  {...register('firstName')}
                  error={fieldError(errors.firstName)}
                />
                <TextInput
                  label={t('setup.lastName')}
                  autoComplete="family-name"
                  {...register('lastName')}
                  error={fieldError(errors.lastName)}
                />
              </SimpleGrid>
              <TextInput
                label={t('managePayment.billing.address')}
                autoComplete="address-line1"
                {...register('billingAddress')}
                error={fieldError(errors.billingAddress)}
              />
              <TextInput
                label={t('managePayment.billing.address2')}
                autoComplete="address-line2"
                {...register('billingAddress2')}
                error={fieldError(errors.billingAddress2)}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <BillingCountryField
                  control={control}
                  name="billingCountry"
                  countries={countries}
                  onCountryChange={() => setValue('billingState', '', { shouldDirty: true })}
                  lockedReason={countryLocked ? t('managePayment.billing.countryLocked') : undefined}
                />
                <Controller
                  control={control}
                  name="billingState"
                  render={({ field }) => (
                    <Select
                      label={t('managePayment.billing.state')}
                      placeholder={t('managePayment.billing.statePlaceholder')}
                      data={
                        subdivisions.data
                          ? stateOptionsOf(subdivisions.data, t('managePayment.billing.noState'))
                          : []
                      }
                      searchable
                      allowDeselect={false}
                      disabled={!country || subdivisions.isPending}
                      value={field.value || null}
                      onChange={(value) => field.onChange(value ?? '')}
                      onBlur={field.onBlur}
                      ref={field.ref}
                      error={
                        fieldError(errors.billingState) ??
                        (subdivisions.isError ? t('managePayment.billing.statesFailed') : undefined)
                      }
                    />
                  )}
                />
                <TextInput
                  label={t('managePayment.billing.city')}
                  autoComplete="address-level2"
                  {...register('billingCity')}
                  error={fieldError(errors.billingCity)}
                />
                <TextInput
                  label={t('managePayment.billing.zipCode')}
                  autoComplete="postal-code"
                  {...register('billingZipCode')}
                  error={fieldError(errors.billingZipCode)}
                />
              </SimpleGrid>
              <Controller
                control={control}
                name="vatOption"
                render={({ field }) => (
                  <Radio.Group
                    label={t('managePayment.billing.vat')}
                    value={field.value}
                    onChange={(value) => {
                      field.onChange(value);
                      if (value === 'unregistered') setValue('vatNumber', '', { shouldDirty: true });
                    }}
                  >
                    <Group gap="lg" mt="xs">
                      <Radio value="registered" label={t('managePayment.billing.vatRegistered')} />
                      <Radio value="unregistered" label={t('managePayment.billing.vatUnregistered')} />
                    </Group>
                  </Radio.Group>
                )}
              />
              {vatOption === 'registered' && (
                <TextInput
                  label={t('managePayment.billing.vatNumber')}
                  {...register('vatNumber')}
                  error={fieldError(errors.vatNumber)}
                />
              )}
              <Group justify="flex-end">
                <Button type="submit" loading={update.isPending} disabled={!isDirty}>
                  {t('managePayment.billing.save')}
                </Button>
              </Group>
            </Stack>
          </Fieldset>
        </form>
      </Card>
    </Stack>
  );
}
