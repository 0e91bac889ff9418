import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { ResendVerificationRequestSchema } from '@portal/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/i18n';
import { useNavigate } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { fieldError, submitErrorText } from '../../../lib/form-errors';
import { useSendVerificationOtp } from '../api/send-verification-otp';

export function EmailExpiredPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const resend = useSendVerificationOtp();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(ResendVerificationRequestSchema), defaultValues: { email: '' } });

  const onSubmit = handleSubmit((values) =>
    resend.mutate(values, {
      onSuccess: () => navigate('/verify-email', { state: { email: values.email } }),
      onError: (error) => {
        const message = submitErrorText(error);
        if (message) setError('email', { message });
      },
    }),
  );

  return (
    <CenteredFrame title={t('emailExpired.title')}>
      <Text>{t('emailExpired.intro')}</Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('auth.email')} type="email" autoComplete="email" {...register('email')} error={fieldError(errors.email)} />
          <Button type="submit" loading={resend.isPending}>
            {t('emailExpired.submit')}
          </Button>
        </Stack>
      </form>
    </CenteredFrame>
  );
}
