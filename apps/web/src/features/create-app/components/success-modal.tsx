import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Application } from '@portal/contracts';
import { IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { useNavigate } from 'react-router';
import { usePublicConfig } from '../../../lib/public-config';
import { openConsoleTab } from '../../../lib/regions/console-tab';
import { toastError } from '../../../lib/toasts';
import { errorText } from '../../../lib/api-error';
import { ExternalLinkButton } from './step-parts';

/** §2: the UI kit is installed; closing leaves the wizard for the applications list. */
export function SuccessModal({
  opened,
  application,
  sub,
}: {
  opened: boolean;
  application: Application;
  sub: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: config } = usePublicConfig();
  const close = () => void navigate(`/apps/${encodeURIComponent(sub)}`, { replace: true });
  const { consoleUrl } = application;
  return (
    <Modal opened={opened} onClose={close} title={t('createApp.success.title')} centered>
      <Stack gap="md">
        <Text>{t('createApp.success.text', { name: application.name })}</Text>
        {consoleUrl && (
          <Text size="sm">
            {t('createApp.success.console')}{' '}
            {/* The console needs the regional session, which the tab is signed in with (openConsoleTab). */}
            <Anchor
              href={consoleUrl}
              target="_blank"
              rel="noopener noreferrer"
              style={{ wordBreak: 'break-all' }}
              onClick={(event) => {
                event.preventDefault();
                openConsoleTab({ ...application, consoleUrl }).catch((error: unknown) =>
                  toastError(errorText(error, { fallback: 'common.anErrorOccurred' })),
                );
              }}
            >
              {consoleUrl}
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
