import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, List, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { InitialSetupFormSchema, TRIAL_LENGTH_DAYS, type InitialSetupForm } from '@portal/contracts';
import { IconCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/i18n';
import { Link, useNavigate } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { BillingCountryField } from '../../../components/billing-country-field';
import { StatusAlert } from '../../../components/status-alert';
import { useSignedInAccount } from '../../../lib/account';
import { countriesQueryOptions } from '../../../api/countries/list-countries';
import { applyFieldErrors, fieldError, submitErrorText } from '../../../lib/form-errors';
import { useUpdateAccount } from '../../../api/accounts/update-account';
import { LegalDialog } from './legal-dialog';

const FORM_FIELDS = ['organization', 'firstName', 'lastName', 'billingCountry'] as const;

export function SetupOrganizationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const account = useSignedInAccount();
  // The flat-rate contract is sales-led: no country is asked and the legal documents come first (§4).
  const flatRate = account.contractType === 'flat_rate';
  const countries = useQuery({ ...countriesQueryOptions, enabled: !flatRate });
  const update = useUpdateAccount();
  const [dialogOpened, setDialogOpened] = useState(flatRate);
  const [legalAccepted, setLegalAccepted] = useState(false);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(InitialSetupFormSchema),
    defaultValues: {
      organization: account.organization,
      firstName: account.firstName,
      lastName: account.lastName,
      // An empty string makes the optional country required; undefined leaves it out.
      billingCountry: flatRate ? undefined : account.billingCountry,
    },
  });

  // On success the account is filled, and the route guard moves the user on to /home.
  const save = (values: InitialSetupForm) =>
    update.mutate(
      { ...values, acceptedPrivacyPolicy: true, acceptedTerms: true },
      { onError: (error) => applyFieldErrors(error, setError, FORM_FIELDS) && setDialogOpened(false) },
    );
  const closeToShowErrors = () => setDialogOpened(false);

  const onSubmit = handleSubmit((values) => (legalAccepted ? save(values) : setDialogOpened(true)));
  const onConfirmLegal = () => {
    setLegalAccepted(true);
    void handleSubmit(save, closeToShowErrors)();
  };
  const failure = submitErrorText(update.error);

  return (
    <CenteredFrame title={t('setup.title')} width={520}>
      <Text>{t('setup.intro')}</Text>
      <List
        spacing={4}
        icon={
          <ThemeIcon size={20} radius="xl" color="green.8">
            <IconCheck size={14} aria-hidden />
          </ThemeIcon>
        }
      >
        <List.Item>{t('setup.benefit.trial', { days: TRIAL_LENGTH_DAYS })}</List.Item>
        <List.Item>{t('setup.benefit.noCard')}</List.Item>
        <List.Item>{t('setup.benefit.unlimited')}</List.Item>
      </List>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {!dialogOpened && <StatusAlert kind="fail" message={failure} />}
          <TextInput label={t('setup.organization')} autoComplete="organization" {...register('organization')} error={fieldError(errors.organization)} />
          <TextInput label={t('setup.firstName')} autoComplete="given-name" {...register('firstName')} error={fieldError(errors.firstName)} />
          <TextInput label={t('setup.lastName')} autoComplete="family-name" {...register('lastName')} error={fieldError(errors.lastName)} />
          {!flatRate && <BillingCountryField control={control} name="billingCountry" countries={countries} />}
          <Button type="submit" loading={update.isPending}>
            {t('setup.submit')}
          </Button>
        </Stack>
      </form>
      <Anchor component={Link} to="/logout" size="sm" ta="center">
        {t('layout.signOut')}
      </Anchor>
      <LegalDialog
        opened={dialogOpened}
        confirming={update.isPending}
        error={failure}
        onConfirm={onConfirmLegal}
        onDecline={() => navigate('/logout', { replace: true })}
      />
    </CenteredFrame>
  );
}
