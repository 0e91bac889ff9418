import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Application } from '@portal/contracts';
import { IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { useNavigate } from 'react-router';
import { usePublicConfig } from '../../../lib/public-config';
import { ExternalLinkButton } from './step-parts';

/** §2: the UI kit is installed; closing leaves the wizard for the applications list. */
export function SuccessModal({ opened, application, sub }: { opened: boolean; application: Application; sub: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: config } = usePublicConfig();
  const close = () => void navigate(`/apps/${encodeURIComponent(sub)}`, { replace: true });
  return (
    <Modal opened={opened} onClose={close} title={t('createApp.success.title')} centered>
      <Stack gap="md">
        <Text>{t('createApp.success.text', { name: application.name })}</Text>
        {application.consoleUrl && (
          <Text size="sm">
            {t('createApp.success.console')}{' '}
            <Anchor href={application.consoleUrl} target="_blank" rel="noopener noreferrer" style={{ wordBreak: 'break-all' }}>
              {application.consoleUrl}
            </Anchor>
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common.close')}
          </Button>
          {config && (
            <ExternalLinkButton
              href={config.helpLinks.developerPortal}
              rightSection={<IconExternalLink size={16} aria-hidden />}
            >
              {t('createApp.success.playground')}
            </ExternalLinkButton>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
