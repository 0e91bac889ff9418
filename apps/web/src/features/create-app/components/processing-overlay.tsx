import { Loader, Overlay, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';

/** Covers the whole screen while the application is created and connected, so nothing else is clicked. */
export function ProcessingOverlay() {
  const { t } = useTranslation();
  return (
    <Overlay fixed center zIndex={1000} backgroundOpacity={0.75} color="#fff">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader />
        <Text fw={500}>{t('createApp.creating')}</Text>
      </Stack>
    </Overlay>
  );
}
