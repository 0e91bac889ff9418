import { IconKey } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { ButtonLink, Button, TextLink } from '../../../components/plain/buttons';
import { PasswordField } from '../../../components/plain/fields';
import { Stack, Text } from '../../../components/plain/layout';
import { AlertBox, StatusAlert } from '../../../components/status-alert';
import { ApiError } from '../../../lib/api-error';
import { submitErrorText } from '../../../lib/form-errors';
import { TWO_FACTOR_SIGN_IN_PATH } from '../../../lib/guard';
import { useTranslation } from '../../../lib/i18n';
import { usePublicConfig } from '../../../lib/public-config';
import { useSchemaForm } from '../../../lib/schema-form';
import { EmailField } from './email-field';
import { useSignIn } from '../api/sign-in';
import { failAlert, useAuthNavigationState } from '../navigation-state';
import { GoogleSignInRefusal } from './google-sign-in-refusal';
import { GoogleSignInButton } from './google-sign-in-button';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const { alert } = useAuthNavigationState();
  const signIn = useSignIn();
  const { data: config } = usePublicConfig();
  const [failure, setFailure] = useState<string | null>(null);
  // Beyond the spec: a member of an organisation that requires single sign-on is sent there.
  const [ssoRequired, setSsoRequired] = useState(false);
  const form = useSchemaForm({
    defaultValues: { email: '', password: '' },
    loadSchema: () => import('@portal/contracts/auth').then((auth) => auth.SignInRequestSchema),
  });

  const signInWithValues = form.handleSubmit((values) => {
    setSsoRequired(false);
    signIn.mutate(values, {
      // The second factor's page keeps the query, so it sends the user where this page would have.
      onSuccess: (outcome) => {
        if (outcome === 'second-factor') navigate(`${TWO_FACTOR_SIGN_IN_PATH}${search}`);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED') {
          navigate('/verify-email', {
            state: { email: values.email, alert: failAlert('loginWithEmail.error.user.notConfirmed') },
          });
        } else if (error instanceof ApiError && error.code === 'SSO_REQUIRED') {
          setSsoRequired(true);
        } else if (error instanceof ApiError && error.status === 401) {
          setFailure('loginWithEmail.error.incorrectCredentials');
        } else {
          setFailure(submitErrorText(error));
        }
      },
    });
  });

  // §5: a sign-in without an email or a password is stopped before the call, and says so above the
  // fields, which say which one.
  const onSubmit = (event: FormEvent) => {
    const { email, password } = form.values;
    setFailure(email.trim() === '' || password === '' ? 'auth.error.emailOrPasswordMissing' : null);
    return signInWithValues(event);
  };

  return (
    <CenteredFrame title={t('login.title')}>
      {alert && <StatusAlert kind={alert.kind} message={alert.message} />}
      <GoogleSignInRefusal />
      <GoogleSignInButton startedOn="login" />
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <StatusAlert kind="fail" message={failure} />
          {ssoRequired && (
            <AlertBox kind="fail">
              {t('sso.error.required')} <TextLink to="/sign-in-sso">{t('login.sso')}</TextLink>
            </AlertBox>
          )}
          <EmailField {...form.field('email')} error={form.errorOf('email')} />
          <PasswordField
            label={t('auth.password')}
            autoComplete="current-password"
            {...form.field('password')}
            error={form.errorOf('password')}
          />
          <Text small end>
            <TextLink to="/password/reset">{t('login.forgotPassword')}</TextLink>
          </Text>
          <Button type="submit" disabled={!form.isDirty} loading={signIn.isPending}>
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
      {/* Offered once an organisation has an identity provider (the public configuration says so). */}
      {config?.ssoSignIn && (
        <ButtonLink to="/sign-in-sso" variant="default" leftSection={<IconKey size={18} aria-hidden />}>
          {t('login.sso')}
        </ButtonLink>
      )}
      <Text small centered>
        {t('login.noAccount')} <TextLink to="/signup">{t('login.signUpLink')}</TextLink>
      </Text>
    </CenteredFrame>
  );
}
