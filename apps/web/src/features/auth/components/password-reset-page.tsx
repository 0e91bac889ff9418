import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { PasswordResetRequestSchema } from '@portal/contracts';
import { useForm } from 'react-hook-form';
import { Trans, useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { StatusAlert } from '../../../components/status-alert';
import { fieldError, submitErrorText } from '../../../lib/form-errors';
import { useRequestPasswordReset } from '../api/request-password-reset';

export function PasswordResetPage() {
  const { t } = useTranslation();
  const reset = useRequestPasswordReset();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(PasswordResetRequestSchema), defaultValues: { email: '' } });

  const backToLogin = (
    <Anchor component={Link} to="/login" size="sm">
      {t('auth.backToLogin')}
    </Anchor>
  );

  if (reset.isSuccess) {
    return (
      <CenteredFrame title={t('passwordReset.sentTitle')}>
        <Text>
          <Trans i18nKey="passwordReset.sent" values={{ email: reset.variables.email }} components={{ strong: <strong /> }} />
        </Text>
        {backToLogin}
      </CenteredFrame>
    );
  }

  return (
    <CenteredFrame title={t('passwordReset.title')}>
      <Text>{t('passwordReset.intro')}</Text>
      <form onSubmit={handleSubmit((values) => reset.mutate(values))} noValidate>
        <Stack gap="sm">
          <StatusAlert kind="fail" message={submitErrorText(reset.error)} />
          <TextInput label={t('auth.email')} type="email" autoComplete="email" {...register('email')} error={fieldError(errors.email)} />
          <Button type="submit" loading={reset.isPending}>
            {t('passwordReset.submit')}
          </Button>
        </Stack>
      </form>
      {backToLogin}
    </CenteredFrame>
  );
}
