import { useState } from 'react';
import { useLocation } from 'react-router';
import { CenteredFrame } from '../../../components/centered-frame';
import { Button, LinkButton, TextLink } from '../../../components/plain/buttons';
import { TextField } from '../../../components/plain/fields';
import { Stack, Text } from '../../../components/plain/layout';
import { StatusAlert } from '../../../components/status-alert';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/schema-form';
import { useVerifySecondFactor, type SecondFactor } from '../api/verify-second-factor';
import { secondFactorFailure } from '../second-factor';

/**
 * Beyond the spec: the second step of a password or Google sign-in for a user with two-factor
 * authentication, the code from the authenticator app or a backup code. Once it is given the
 * account loads and the route guard sends the user where the sign-in was going (the redirect
 * parameter the sign-in page passed on).
 */
export function TwoFactorPage() {
  const [method, setMethod] = useState<SecondFactor['method']>('totp');
  // Each way of signing in has its own form, so switching starts an empty one.
  return <SecondFactorForm key={method} method={method} onSwitch={setMethod} />;
}

function SecondFactorForm({
  method,
  onSwitch,
}: {
  method: SecondFactor['method'];
  onSwitch: (method: SecondFactor['method']) => void;
}) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const verify = useVerifySecondFactor();
  const [failure, setFailure] = useState<string | null>(null);
  const totp = method === 'totp';
  const form = useSchemaForm({
    defaultValues: { code: '' },
    loadSchema: () =>
      import('@portal/contracts/auth').then((auth) =>
        totp ? auth.TotpCodeFormSchema : auth.BackupCodeFormSchema,
      ),
  });

  const onSubmit = form.handleSubmit(({ code }) => {
    setFailure(null);
    verify.mutate(
      { method, code },
      {
        onError: (error) => {
          const shown = secondFactorFailure(error);
          if (shown.on === 'code') form.setError('code', { message: shown.message });
          else setFailure(shown.message);
        },
      },
    );
  });

  return (
    <CenteredFrame title={t('twoFactor.signIn.title')}>
      <Text>{t(totp ? 'twoFactor.signIn.totpIntro' : 'twoFactor.signIn.backupIntro')}</Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <StatusAlert kind="fail" message={failure} />
          <TextField
            label={t(totp ? 'twoFactor.signIn.totpCode' : 'twoFactor.signIn.backupCode')}
            autoComplete="one-time-code"
            inputMode={totp ? 'numeric' : 'text'}
            autoCapitalize="off"
            spellCheck={false}
            autoFocus
            {...form.field('code')}
            error={form.errorOf('code')}
          />
          <Button type="submit" loading={verify.isPending}>
            {t('twoFactor.signIn.submit')}
          </Button>
        </Stack>
      </form>
      <Text small>
        <LinkButton onClick={() => onSwitch(totp ? 'backup-code' : 'totp')}>
          {t(totp ? 'twoFactor.signIn.useBackupCode' : 'twoFactor.signIn.useTotp')}
        </LinkButton>
      </Text>
      <Text small centered>
        <TextLink to={`/login${search}`}>{t('auth.backToLogin')}</TextLink>
      </Text>
    </CenteredFrame>
  );
}
