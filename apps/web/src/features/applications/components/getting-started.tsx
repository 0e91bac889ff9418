import { Anchor, Card, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { PublicConfig } from '@portal/contracts';
import { IconBook, IconDeviceGamepad2, IconMessages, IconExternalLink, type Icon } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import type { TranslationKey } from '../../../lib/i18n';
import { usePublicConfig } from '../../../lib/public-config';

interface GuideCard {
  /** The configured help link it opens; the developer portal hosts the playground. */
  link: keyof PublicConfig['helpLinks'];
  title: TranslationKey;
  text: TranslationKey;
  icon: Icon;
}

const CARDS: GuideCard[] = [
  {
    link: 'developerPortal',
    title: 'apps.empty.playground.title',
    text: 'apps.empty.playground.text',
    icon: IconDeviceGamepad2,
  },
  { link: 'documentation', title: 'apps.empty.docs.title', text: 'apps.empty.docs.text', icon: IconBook },
  {
    link: 'communityHub',
    title: 'apps.empty.forums.title',
    text: 'apps.empty.forums.text',
    icon: IconMessages,
  },
];

/** §2 empty state: where to look before creating the first application. */
export function GettingStarted() {
  const { t } = useTranslation();
  const { data: config } = usePublicConfig();
  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          {t('apps.empty.title')}
        </Title>
        <Text c="dimmed">{t('apps.empty.text')}</Text>
      </div>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {CARDS.map(({ link, title, text, icon: CardIcon }) => (
          <Card key={link} withBorder padding="lg" component="article">
            <ThemeIcon variant="light" size="lg" radius="md">
              <CardIcon size={20} aria-hidden />
            </ThemeIcon>
            <Title order={3} size="h5" mt="sm">
              {t(title)}
            </Title>
            <Text size="sm" c="dimmed" mt={4} style={{ flex: 1 }}>
              {t(text)}
            </Text>
            {config && (
              <Anchor
                href={config.helpLinks[link]}
                target="_blank"
                rel="noopener noreferrer"
                size="sm"
                mt="sm"
              >
                <span>{t('apps.empty.open', { title: t(title) })}</span>{' '}
                <IconExternalLink size={14} aria-hidden style={{ verticalAlign: 'middle' }} />
              </Anchor>
            )}
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
