import { Box, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/i18n';

/** The frame of every page shown outside the signed-in layout: brand, a card, and its heading. */
export function CenteredFrame({ title, children, width = 440 }: { title: ReactNode; children?: ReactNode; width?: number }) {
  const { t } = useTranslation();
  return (
    <Box component="main" mih="100vh" bg="gray.0" py="xl" px="md">
      <Stack align="center" gap="lg">
        <Group gap="xs">
          <Image src="/favicon.svg" alt="" w={32} h={32} />
          <Text fw={700} size="lg">
            {t('app.name')}
          </Text>
        </Group>
        <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={width}>
          <Stack gap="md">
            <Title order={1} size="h2">
              {title}
            </Title>
            {children}
          </Stack>
        </Paper>
      </Stack>
    </Box>
  );
}
