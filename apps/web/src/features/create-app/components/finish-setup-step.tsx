import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconBook, IconHash, IconUsersGroup, type Icon } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';
import type { TranslationKey } from '../../../lib/i18n';
import { usePublicConfig } from '../../../lib/public-config';
import type { PublicConfig } from '@portal/contracts';
import { StepHeading } from './step-parts';

/** Each card opens its own guide, configured with the other help links (HELP_*_URL). */
const CARDS: { title: TranslationKey; text: TranslationKey; icon: Icon; link: keyof PublicConfig['helpLinks'] }[] = [
  {
    title: 'createApp.finish.community.title',
    text: 'createApp.finish.community.text',
    icon: IconUsersGroup,
    link: 'manageCommunity',
  },
  {
    title: 'createApp.finish.channel.title',
    text: 'createApp.finish.channel.text',
    icon: IconHash,
    link: 'createChannel',
  },
  { title: 'createApp.finish.docs.title', text: 'createApp.finish.docs.text', icon: IconBook, link: 'documentation' },
];

/** §2 finish setup: where to go next in the docs, then back to the application. */
export function FinishSetupStep({ sub }: { sub: string }) {
  const { t } = useTranslation();
  const { data: config } = usePublicConfig();
  const appsPath = `/apps/${encodeURIComponent(sub)}`;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={appsPath} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('createApp.finish.back')}
        </Group>
      </Anchor>
      <StepHeading title={t('createApp.finish.title')} text={t('createApp.finish.text')} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {CARDS.map(({ title, text, icon: CardIcon, link }) => (
          <Card
            key={title}
            withBorder
            padding="lg"
            component="a"
            href={config?.helpLinks[link]}
            target="_blank"
            rel="noopener noreferrer"
          >
            <ThemeIcon variant="light" size="lg" radius="md">
              <CardIcon size={20} aria-hidden />
            </ThemeIcon>
            <Title order={3} size="h5" mt="sm">
              {t(title)}
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              {t(text)}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <Group justify="flex-end">
        <Button component={Link} to={appsPath}>
          {t('createApp.finish.goToApp')}
        </Button>
      </Group>
    </Stack>
  );
}
