import { Alert, Anchor, Button, Card, Code, Group, List, SimpleGrid, Stack, Text } from '@mantine/core';
import type { Application, PublicConfig } from '@portal/contracts';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link, useLocation, useNavigate } from 'react-router';
import type { TranslationKey } from '../../../lib/i18n';
import { usePublicConfig } from '../../../lib/public-config';
import { StepError, StepHeading } from './step-parts';
import { getFirstActivity } from '../../../lib/regions/region-api';
import { regionalSessionQueryOptions } from '../../../lib/regions/regional-session';
import { regionBaseUrlIn } from '../../../lib/regions/region';
import { sampleClientCommand, type ProductType } from '../code-samples';
import type { WizardState } from '../wizard-state';
import { useApiKey } from '../api/get-api-key';
import { sampleApiKey } from '../wizard-api-key';
import { SuccessModal } from './success-modal';

const RESOURCES: { link: keyof PublicConfig['helpLinks']; title: TranslationKey; text: TranslationKey }[] = [
  { link: 'documentation', title: 'createApp.trouble.docs', text: 'createApp.trouble.docs.text' },
  { link: 'communityHub', title: 'createApp.trouble.community', text: 'createApp.trouble.community.text' },
];

interface TroubleshootingStepProps {
  sub: string;
  application: Application;
  /** The tab the user was on; a reload loses it and the SDK path is taken. */
  productType: ProductType | undefined;
}

/** §2 troubleshooting: checks to make, then asks the region whether the app has been used yet. */
export function TroubleshootingStep({ sub, application, productType }: TroubleshootingStepProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { search } = useLocation();
  const { data: config } = usePublicConfig();
  const apiKey = useApiKey(application);
  const [modalOpened, setModalOpened] = useState(false);
  const state: WizardState = { application, productType };

  const check = useMutation({
    mutationFn: async () =>
      getFirstActivity(
        application.region,
        application.networkId ?? '',
        await client.fetchQuery(regionalSessionQueryOptions(application)),
      ),
    onSuccess: ({ status }) => {
      if (!status) return;
      if (productType === 'uikit') setModalOpened(true);
      else void navigate(`/create-app/${encodeURIComponent(sub)}/finish-setup${search}`, { state });
    },
  });

  return (
    <Stack gap="lg">
      <StepHeading title={t('createApp.trouble.title')} text={t('createApp.trouble.text')} />
      <List type="ordered" spacing="sm">
        <List.Item>
          <Text fw={600}>{t('createApp.trouble.apiKey.title')}</Text>
          <Text size="sm" c="dimmed">
            {t('createApp.trouble.apiKey.text')}
          </Text>
        </List.Item>
        <List.Item>
          <Text fw={600}>{t('createApp.trouble.network.title')}</Text>
          <Text size="sm" c="dimmed">
            {t('createApp.trouble.network.text')}
          </Text>
        </List.Item>
      </List>
      {config && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {RESOURCES.map(({ link, title, text }) => (
            <Card key={link} withBorder padding="md">
              <Anchor href={config.helpLinks[link]} target="_blank" rel="noopener noreferrer" fw={600}>
                {t(title)}
              </Anchor>
              <Text size="sm" c="dimmed">
                {t(text)}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      )}
      {check.data?.status === false && (
        <Alert color="blue" icon={<IconInfoCircle aria-hidden />} role="status">
          <Text size="sm">{t('createApp.trouble.noActivity')}</Text>
          <Code block mt="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {sampleClientCommand(
              application.region,
              sampleApiKey(apiKey.key, t('createApp.loadingValue')),
              window.location.origin,
              config ? regionBaseUrlIn(config, application.region) : '/',
            )}
          </Code>
        </Alert>
      )}
      <StepError error={check.error} />
      <Group justify="space-between">
        <Button
          variant="default"
          component={Link}
          to={`/create-app/${encodeURIComponent(sub)}/setup-application${search}`}
          state={state}
        >
          {t('createApp.previous')}
        </Button>
        <Group>
          <Button variant="subtle" component={Link} to={`/apps/${encodeURIComponent(sub)}`}>
            {t('createApp.trouble.skip')}
          </Button>
          <Button
            loading={check.isPending}
            disabled={!application.networkId || !apiKey.sessionReady}
            onClick={() => check.mutate()}
          >
            {t('createApp.trouble.check')}
          </Button>
        </Group>
      </Group>
      <SuccessModal opened={modalOpened} application={application} sub={sub} />
    </Stack>
  );
}
