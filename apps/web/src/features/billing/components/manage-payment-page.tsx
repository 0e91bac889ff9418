import { Alert, Stack, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useSignedInAccount } from '../../../lib/account';
import { useTranslation } from '../../../lib/i18n';
import { BillingInformationForm } from './billing-information-form';
import { SavedCards } from './saved-cards';

/** §2 /manage-payment: the saved cards and the billing information form. */
export function ManagePaymentPage() {
  const { t } = useTranslation();
  const account = useSignedInAccount();
  return (
    <Stack gap="xl">
      <Title order={1}>{t('page.managePayment')}</Title>
      {account.accountStatus === 'inactive' && (
        <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} role="status">
          {t('managePayment.inactive')}
        </Alert>
      )}
      <SavedCards />
      <BillingInformationForm />
    </Stack>
  );
}
