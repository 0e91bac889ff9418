import { Stack, Text, Title } from '@mantine/core';
import { QueryContent } from '../../../components/query-content';
import { useTranslation } from '../../../lib/i18n';
import { useSsoSettings } from '../api/get-sso-settings';
import { IdentityProviderSection } from './identity-provider-section';
import { ServiceProviderValues } from './service-provider-values';
import { SignInSettingsForm, type AccessFields } from './sign-in-settings-form';

/**
 * Beyond the spec: Organisation settings → Single sign-on (/single-sign-on, MANAGE_SSO): the
 * identity provider, the values to register in it, and how members sign in through it.
 */
export function SingleSignOnPage({ accessFields }: { accessFields: AccessFields }) {
  const { t } = useTranslation();
  const settings = useSsoSettings();
  return (
    <Stack gap="xl">
      <Stack gap="xs">
        <Title order={1}>{t('page.singleSignOn')}</Title>
        <Text c="dimmed">{t('ssoSettings.intro')}</Text>
      </Stack>
      <QueryContent query={settings} errorTitle={t('ssoSettings.loadError')}>
        {(loaded) => (
          <>
            <IdentityProviderSection connection={loaded.connection} />
            <ServiceProviderValues values={loaded.serviceProvider} />
            <SignInSettingsForm settings={loaded} accessFields={accessFields} />
          </>
        )}
      </QueryContent>
    </Stack>
  );
}
