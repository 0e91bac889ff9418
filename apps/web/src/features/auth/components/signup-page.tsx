import type { ErrorCode } from '@portal/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { PasswordStrengthMeter } from '../../../components/password-strength-meter';
import { Button, TextLink } from '../../../components/plain/buttons';
import { PasswordField, TextField } from '../../../components/plain/fields';
import { Stack, Text } from '../../../components/plain/layout';
import { StatusAlert } from '../../../components/status-alert';
import { ApiError } from '../../../lib/api-error';
import { applyFieldErrors, submitErrorText } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/schema-form';
import { useSignUp } from '../api/sign-up';
import { useAuthNavigationState } from '../navigation-state';
import { GoogleSignInRefusal } from './google-sign-in-refusal';
import { GoogleSignInButton } from './google-sign-in-button';

const CORPORATE_EMAIL_REQUIRED: ErrorCode = 'CORPORATE_EMAIL_REQUIRED';

export function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signUp = useSignUp();
  const { alert } = useAuthNavigationState();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useSchemaForm({
    defaultValues: { email: '', password: '' },
    loadSchema: () => import('@portal/contracts/auth').then((auth) => auth.SignUpRequestSchema),
    // Messages appear once a field was left, but the button follows validity from the first key.
    mode: 'touched',
  });

  const onSubmit = form.handleSubmit((values) => {
    setFailure(null);
    signUp.mutate(values, {
      onSuccess: () => navigate('/verify-email', { state: { email: values.email } }),
      onError: (error) => {
        const code = error instanceof ApiError ? error.code : '';
        if (code === CORPORATE_EMAIL_REQUIRED) {
          form.setError('email', { message: 'signupForm.email.validation.corporate.lambda.error' });
        } else if (code.startsWith('USER_ALREADY_EXISTS')) {
          form.setError('email', { message: 'loginWithEmail.error.accountExists' });
        } else if (!applyFieldErrors(error, form.setError, ['email', 'password'])) {
          setFailure(submitErrorText(error));
        }
      },
    });
  });

  return (
    <CenteredFrame title={t('signup.title')}>
      {alert && <StatusAlert kind={alert.kind} message={alert.message} />}
      <GoogleSignInRefusal />
      <GoogleSignInButton startedOn="signup" />
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <StatusAlert kind="fail" message={failure} />
          <TextField
            label={t('signup.email')}
            description={t('signup.emailHint')}
            type="email"
            autoComplete="email"
            {...form.field('email')}
            error={form.errorOf('email')}
          />
          <PasswordField
            label={t('auth.password')}
            description={t('password.strongRequired')}
            autoComplete="new-password"
            {...form.field('password')}
            error={form.errorOf('password')}
          />
          <PasswordStrengthMeter password={form.values.password} />
          <Button type="submit" disabled={!form.isValid} loading={signUp.isPending}>
            {t('signup.submit')}
          </Button>
        </Stack>
      </form>
      <Text small centered>
        {t('signup.haveAccount')} <TextLink to="/login">{t('signup.signInLink')}</TextLink>
      </Text>
    </CenteredFrame>
  );
}
