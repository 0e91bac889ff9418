import { useNavigate, useSearchParams } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { Button } from '../../../components/plain/buttons';
import { PasswordField } from '../../../components/plain/fields';
import { Stack } from '../../../components/plain/layout';
import { StatusAlert } from '../../../components/status-alert';
import { submitErrorText } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/schema-form';
import { useResetPassword } from '../api/reset-password';
import { successAlert } from '../navigation-state';
import { LinkProblem } from './link-problem';

/** The landing of the reset mail's link: /password/renew?email=…&code=… */
export function PasswordRenewPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const email = params.get('email')?.trim();
  const code = params.get('code')?.trim();

  if (!email || !code) {
    return (
      <LinkProblem
        title={t('passwordRenew.title')}
        message="auth.error.parameterMissing"
        to="/password/reset"
        linkLabel={t('passwordRenew.requestNewLink')}
      />
    );
  }
  return <PasswordRenewForm email={email} code={code} />;
}

function PasswordRenewForm({ email, code }: { email: string; code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const renew = useResetPassword();
  const form = useSchemaForm({
    defaultValues: { password: '', confirmPassword: '' },
    loadSchema: () => import('@portal/contracts/auth').then((auth) => auth.PasswordRenewFormSchema),
  });

  const onSubmit = form.handleSubmit(({ password }) =>
    renew.mutate(
      { email, otp: code, password },
      {
        onSuccess: () =>
          navigate('/login', { replace: true, state: { alert: successAlert('passwordRenew.success') } }),
      },
    ),
  );

  return (
    <CenteredFrame title={t('passwordRenew.title')}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <StatusAlert kind="fail" message={submitErrorText(renew.error)} />
          <PasswordField
            label={t('passwordRenew.password')}
            autoComplete="new-password"
            {...form.field('password')}
            error={form.errorOf('password')}
          />
          <PasswordField
            label={t('passwordRenew.confirmPassword')}
            autoComplete="new-password"
            {...form.field('confirmPassword')}
            error={form.errorOf('confirmPassword')}
          />
          <Button type="submit" loading={renew.isPending}>
            {t('passwordRenew.submit')}
          </Button>
        </Stack>
      </form>
    </CenteredFrame>
  );
}
