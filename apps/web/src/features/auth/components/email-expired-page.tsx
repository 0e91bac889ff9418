import { useNavigate } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { Button } from '../../../components/plain/buttons';
import { Stack, Text } from '../../../components/plain/layout';
import { submitErrorText } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/schema-form';
import { EmailField } from './email-field';
import { useSendVerificationOtp } from '../api/send-verification-otp';

export function EmailExpiredPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const resend = useSendVerificationOtp();
  const form = useSchemaForm({
    defaultValues: { email: '' },
    loadSchema: () => import('@portal/contracts/auth').then((auth) => auth.ResendVerificationRequestSchema),
  });

  const onSubmit = form.handleSubmit((values) =>
    resend.mutate(values, {
      onSuccess: () => navigate('/verify-email', { state: { email: values.email } }),
      onError: (error) => {
        const message = submitErrorText(error);
        if (message) form.setError('email', { message });
      },
    }),
  );

  return (
    <CenteredFrame title={t('emailExpired.title')}>
      <Text>{t('emailExpired.intro')}</Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <EmailField {...form.field('email')} error={form.errorOf('email')} />
          <Button type="submit" loading={resend.isPending}>
            {t('emailExpired.submit')}
          </Button>
        </Stack>
      </form>
    </CenteredFrame>
  );
}
