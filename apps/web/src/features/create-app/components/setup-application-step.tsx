import { Anchor, Button, Code, Group, Paper, SegmentedControl, Stack, Tabs, Text } from '@mantine/core';
import type { Application } from '@portal/contracts';
import { IconHelp } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link, useLocation, useNavigate } from 'react-router';
import { usePublicConfig } from '../../../lib/public-config';
import { useApiKey } from '../api/get-api-key';
import { PLATFORMS, PRODUCT_TYPES, codeSamples, type Platform, type ProductType } from '../code-samples';
import type { WizardState } from '../wizard-state';
import { sampleApiKey, type WizardApiKey } from '../wizard-api-key';
import { CopyAction } from '../../../components/copy-action';
import { ExternalLinkButton, StepHeading } from './step-parts';
import { SuccessModal } from './success-modal';

const PLATFORM_LABELS: Record<Platform, string> = {
  ios: 'iOS',
  android: 'Android',
  flutter: 'Flutter',
  'react-native': 'React Native',
  react: 'React',
};

const isProductType = (value: string | null): value is ProductType => PRODUCT_TYPES.some((type) => type === value);

/**
 * The app's first key, to copy; once it was rotated or revoked, the prefix of a key that works and
 * where to manage the keys (decision 043).
 */
function WizardKey({ apiKey, keysLink }: { apiKey: WizardApiKey; keysLink: string }) {
  const { t } = useTranslation();
  if (apiKey.kind !== 'stopped') {
    const value = apiKey.kind === 'key' ? apiKey.apiKey : null;
    return (
      <Group gap="xs" wrap="nowrap">
        <Code style={{ wordBreak: 'break-all' }}>{value ?? t('createApp.loadingValue')}</Code>
        <CopyAction value={value ?? ''} label={t('createApp.setup.copyKey')} disabled={value === null} />
      </Group>
    );
  }
  return (
    <Stack gap="xs" align="flex-start">
      {apiKey.prefix && <Code>{`${apiKey.prefix}…`}</Code>}
      <Text size="sm">{t('createApp.setup.keyStopped')}</Text>
      <Button component={Link} to={keysLink} variant="default" size="xs">
        {t('createApp.setup.openApiKeys')}
      </Button>
    </Stack>
  );
}

/** §2 setup application: install and initialise the UI kit or SDK with the app's key and region. */
export function SetupApplicationStep({ sub, application }: { sub: string; application: Application }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const { data: config } = usePublicConfig();
  const [platform, setPlatform] = useState<Platform>('ios');
  const [productType, setProductType] = useState<ProductType>('uikit');
  const [modalOpened, setModalOpened] = useState(false);
  const apiKey = useApiKey(application);
  const samples = codeSamples(platform, productType, {
    apiKey: sampleApiKey(apiKey.key, t('createApp.loadingValue')),
    region: application.region,
  });
  const state: WizardState = { application, productType };
  const stepPath = (step: string) => `/create-app/${encodeURIComponent(sub)}/${step}${search}`;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <StepHeading title={t('createApp.setup.title', { name: application.name })} text={t('createApp.setup.text')} />
        {config && (
          <ExternalLinkButton href={config.helpLinks.faq} variant="default" leftSection={<IconHelp size={16} aria-hidden />}>
            {t('createApp.setup.help')}
          </ExternalLinkButton>
        )}
      </Group>

      <Paper withBorder p="md">
        <Text size="sm" fw={600}>
          {t('createApp.setup.apiKey')}
        </Text>
        <WizardKey
          apiKey={apiKey.key}
          keysLink={`/apps/${encodeURIComponent(sub)}?apiKeys=${encodeURIComponent(application.applicationId)}`}
        />
        {apiKey.isError && (
          <Text size="sm" c="red" role="alert">
            {t('createApp.setup.apiKeyError')}
          </Text>
        )}
      </Paper>

      <SegmentedControl
        aria-label={t('createApp.setup.platform')}
        value={platform}
        onChange={(value) => setPlatform(PLATFORMS.find((item) => item === value) ?? 'ios')}
        data={PLATFORMS.map((value) => ({ value, label: PLATFORM_LABELS[value] }))}
        fullWidth
        style={{ overflowX: 'auto' }}
      />

      <Tabs value={productType} onChange={(value) => isProductType(value) && setProductType(value)}>
        <Tabs.List>
          <Tabs.Tab value="uikit">{t('createApp.setup.tab.uikit')}</Tabs.Tab>
          <Tabs.Tab value="sdk">{t('createApp.setup.tab.sdk')}</Tabs.Tab>
        </Tabs.List>
        {PRODUCT_TYPES.map((type) => (
          <Tabs.Panel key={type} value={type} pt="md">
            <Stack gap="md">
              {samples.map((sample) => (
                <div key={sample.kind}>
                  <Group justify="space-between" mb={4}>
                    <Text size="sm" fw={600}>
                      {t(`createApp.setup.sample.${sample.kind}`)}
                    </Text>
                    <CopyAction
                      value={sample.code}
                      label={t('createApp.setup.copyCode')}
                      disabled={apiKey.key.kind === 'loading' && sample.kind === 'initialize'}
                    />
                  </Group>
                  <Code block style={{ whiteSpace: 'pre', overflowX: 'auto' }} data-language={sample.language}>
                    {sample.code}
                  </Code>
                </div>
              ))}
            </Stack>
          </Tabs.Panel>
        ))}
      </Tabs>

      <Text size="sm">
        <Anchor component={Link} to={stepPath('troubleshooting')} state={state}>
          {t('createApp.setup.trouble')}
        </Anchor>
      </Text>

      <Group justify="space-between">
        <Button variant="default" component={Link} to={`/apps/${encodeURIComponent(sub)}`}>
          {t('createApp.setup.later')}
        </Button>
        <Button
          onClick={() => {
            if (productType === 'uikit') setModalOpened(true);
            else void navigate(stepPath('finish-setup'), { state });
          }}
        >
          {t(productType === 'uikit' ? 'createApp.setup.installedUikit' : 'createApp.setup.installedSdk')}
        </Button>
      </Group>
      <SuccessModal opened={modalOpened} application={application} sub={sub} />
    </Stack>
  );
}
