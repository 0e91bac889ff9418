import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { SignInRequestSchema } from '@portal/contracts';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/i18n';
import { Link, useNavigate } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { StatusAlert } from '../../../components/status-alert';
import { ApiError } from '../../../lib/api-client';
import { fieldError, submitErrorText } from '../../../lib/form-errors';
import { useSignIn } from '../api/sign-in';
import { failAlert, useAuthNavigationState } from '../navigation-state';
import { CorporateEmailRefusal } from './corporate-email-refusal';
import { GoogleSignInButton } from './google-sign-in-button';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { alert } = useAuthNavigationState();
  const signIn = useSignIn();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isDirty },
  } = useForm({ resolver: zodResolver(SignInRequestSchema), defaultValues: { email: '', password: '' } });

  const onSubmit = handleSubmit((values) => {
    setFailure(null);
    signIn.mutate(values, {
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED') {
          navigate('/verify-email', {
            state: { email: values.email, alert: failAlert('loginWithEmail.error.user.notConfirmed') },
          });
        } else if (error instanceof ApiError && error.status === 401) {
          setFailure('loginWithEmail.error.incorrectCredentials');
        } else {
          setFailure(submitErrorText(error));
        }
      },
    });
  });

  return (
    <CenteredFrame title={t('login.title')}>
      {alert && <StatusAlert kind={alert.kind} message={alert.message} />}
      <CorporateEmailRefusal withSignUpLink />
      <GoogleSignInButton startedOn="login" />
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <StatusAlert kind="fail" message={failure} />
          <TextInput label={t('auth.email')} type="email" autoComplete="email" {...register('email')} error={fieldError(errors.email)} />
          <PasswordInput
            label={t('auth.password')}
            autoComplete="current-password"
            {...register('password')}
            error={fieldError(errors.password)}
          />
          <Group justify="flex-end">
            <Anchor component={Link} to="/password/reset" size="sm">
              {t('login.forgotPassword')}
            </Anchor>
          </Group>
          <Button type="submit" disabled={!isDirty} loading={signIn.isPending}>
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
      <Button component={Link} to="/sign-in-sso" variant="default" leftSection={<IconKey size={18} aria-hidden />}>
        {t('login.sso')}
      </Button>
      <Text size="sm" ta="center">
        {t('login.noAccount')}{' '}
        <Anchor component={Link} to="/signup">
          {t('login.signUpLink')}
        </Anchor>
      </Text>
    </CenteredFrame>
  );
}
