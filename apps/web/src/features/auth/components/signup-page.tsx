import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { SignUpRequestSchema, type ErrorCode } from '@portal/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/i18n';
import { Link, useNavigate } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { PasswordStrengthMeter } from '../../../components/password-strength-meter';
import { StatusAlert } from '../../../components/status-alert';
import { ApiError } from '../../../lib/api-client';
import { applyFieldErrors, fieldError, submitErrorText } from '../../../lib/form-errors';
import { useSignUp } from '../api/sign-up';
import { CorporateEmailRefusal } from './corporate-email-refusal';
import { GoogleSignInButton } from './google-sign-in-button';

const CORPORATE_EMAIL_REQUIRED: ErrorCode = 'CORPORATE_EMAIL_REQUIRED';

export function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signUp = useSignUp();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isValid },
  } = useForm({
    resolver: zodResolver(SignUpRequestSchema),
    defaultValues: { email: '', password: '' },
    // Messages appear once a field was left, but the button follows validity from the first key.
    mode: 'onTouched',
  });

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    signUp.mutate(values, {
      onSuccess: () => navigate('/verify-email', { state: { email: values.email } }),
      onError: (error) => {
        const code = error instanceof ApiError ? error.code : '';
        if (code === CORPORATE_EMAIL_REQUIRED) {
          setError('email', { message: 'signupForm.email.validation.corporate.lambda.error' });
        } else if (code.startsWith('USER_ALREADY_EXISTS')) {
          setError('email', { message: 'loginWithEmail.error.accountExists' });
        } else if (!applyFieldErrors(error, setError, ['email', 'password'])) {
          setFailure(submitErrorText(error));
        }
      },
    });
  });

  return (
    <CenteredFrame title={t('signup.title')}>
      <CorporateEmailRefusal withSignUpLink={false} />
      <GoogleSignInButton startedOn="signup" />
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <StatusAlert kind="fail" message={failure} />
          <TextInput
            label={t('signup.email')}
            description={t('signup.emailHint')}
            type="email"
            autoComplete="email"
            {...register('email')}
            error={fieldError(errors.email)}
          />
          <PasswordInput
            label={t('auth.password')}
            description={t('password.strongRequired')}
            autoComplete="new-password"
            {...register('password')}
            error={fieldError(errors.password)}
          />
          <PasswordStrengthMeter password={watch('password')} />
          <Button type="submit" disabled={!isValid} loading={signUp.isPending}>
            {t('signup.submit')}
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center">
        {t('signup.haveAccount')}{' '}
        <Anchor component={Link} to="/login">
          {t('signup.signInLink')}
        </Anchor>
      </Text>
    </CenteredFrame>
  );
}
