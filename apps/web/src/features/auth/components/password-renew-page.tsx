import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { PasswordRenewFormSchema } from '@portal/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/i18n';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { StatusAlert } from '../../../components/status-alert';
import { fieldError, submitErrorText } from '../../../lib/form-errors';
import { useResetPassword } from '../api/reset-password';
import { successAlert } from '../navigation-state';

/** The landing of the reset mail's link: /password/renew?email=…&code=… */
export function PasswordRenewPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const email = params.get('email')?.trim();
  const code = params.get('code')?.trim();

  if (!email || !code) {
    return (
      <CenteredFrame title={t('passwordRenew.title')}>
        <StatusAlert kind="fail" message="auth.error.parameterMissing" />
        <Anchor component={Link} to="/password/reset" size="sm">
          {t('passwordRenew.requestNewLink')}
        </Anchor>
      </CenteredFrame>
    );
  }
  return <PasswordRenewForm email={email} code={code} />;
}

function PasswordRenewForm({ email, code }: { email: string; code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const renew = useResetPassword();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(PasswordRenewFormSchema), defaultValues: { password: '', confirmPassword: '' } });

  const onSubmit = handleSubmit(({ password }) =>
    renew.mutate(
      { email, otp: code, password },
      { onSuccess: () => navigate('/login', { replace: true, state: { alert: successAlert('passwordRenew.success') } }) },
    ),
  );

  return (
    <CenteredFrame title={t('passwordRenew.title')}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <StatusAlert kind="fail" message={submitErrorText(renew.error)} />
          <PasswordInput
            label={t('passwordRenew.password')}
            autoComplete="new-password"
            {...register('password')}
            error={fieldError(errors.password)}
          />
          <PasswordInput
            label={t('passwordRenew.confirmPassword')}
            autoComplete="new-password"
            {...register('confirmPassword')}
            error={fieldError(errors.confirmPassword)}
          />
          <Button type="submit" loading={renew.isPending}>
            {t('passwordRenew.submit')}
          </Button>
        </Stack>
      </form>
    </CenteredFrame>
  );
}
