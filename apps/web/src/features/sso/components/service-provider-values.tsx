import { Stack, Text } from '@mantine/core';
import type { SsoSettings } from '@portal/contracts';
import { useTranslation, type TranslationKey } from '../../../lib/i18n';
import { CopyableValue } from './copyable-value';
import { SettingsSection } from './settings-section';

const VALUES: { key: keyof SsoSettings['serviceProvider']; label: TranslationKey }[] = [
  { key: 'oidcRedirectUrl', label: 'ssoSettings.sp.oidcRedirectUrl' },
  { key: 'samlAcsUrl', label: 'ssoSettings.sp.samlAcsUrl' },
  { key: 'samlEntityId', label: 'ssoSettings.sp.samlEntityId' },
  { key: 'samlMetadataUrl', label: 'ssoSettings.sp.samlMetadataUrl' },
];

/** Beyond the spec: what the super-admin registers in the identity provider, each with a copy button. */
export function ServiceProviderValues({ values }: { values: SsoSettings['serviceProvider'] }) {
  const { t } = useTranslation();
  return (
    <SettingsSection id="sso-sp-title" title={t('ssoSettings.sp.title')}>
      <Stack gap="sm">
        <Text size="sm">{t('ssoSettings.sp.intro')}</Text>
        {VALUES.map(({ key, label }) => (
          <CopyableValue key={key} label={t(label)} value={values[key]} />
        ))}
      </Stack>
    </SettingsSection>
  );
}
