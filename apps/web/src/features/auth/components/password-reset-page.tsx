import { CenteredFrame } from '../../../components/centered-frame';
import { Button, TextLink } from '../../../components/plain/buttons';
import { Stack, Text } from '../../../components/plain/layout';
import { StatusAlert } from '../../../components/status-alert';
import { submitErrorText } from '../../../lib/form-errors';
import { Trans, useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/schema-form';
import { EmailField } from './email-field';
import { useRequestPasswordReset } from '../api/request-password-reset';

export function PasswordResetPage() {
  const { t } = useTranslation();
  const reset = useRequestPasswordReset();
  const form = useSchemaForm({
    defaultValues: { email: '' },
    loadSchema: () => import('@portal/contracts/auth').then((auth) => auth.PasswordResetRequestSchema),
  });

  const backToLogin = (
    <TextLink to="/login" small>
      {t('auth.backToLogin')}
    </TextLink>
  );

  if (reset.isSuccess) {
    return (
      <CenteredFrame title={t('passwordReset.sentTitle')}>
        <Text>
          <Trans
            i18nKey="passwordReset.sent"
            values={{ email: reset.variables?.email ?? '' }}
            components={{ strong: <strong /> }}
          />
        </Text>
        {backToLogin}
      </CenteredFrame>
    );
  }

  return (
    <CenteredFrame title={t('passwordReset.title')}>
      <Text>{t('passwordReset.intro')}</Text>
      <form onSubmit={form.handleSubmit((values) => reset.mutate(values))} noValidate>
        <Stack>
          <StatusAlert kind="fail" message={submitErrorText(reset.error)} />
          <EmailField {...form.field('email')} error={form.errorOf('email')} />
          <Button type="submit" loading={reset.isPending}>
            {t('passwordReset.submit')}
          </Button>
        </Stack>
      </form>
      {backToLogin}
    </CenteredFrame>
  );
}
