import { Burger, Group } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { TrialBanner } from './trial-banner';
import { UserMenu } from './user-menu';

export function TopBar({
  navigationOpened,
  onToggleNavigation,
}: {
  navigationOpened: boolean;
  onToggleNavigation: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group h="100%" px="md" gap="sm" justify="space-between" wrap="nowrap">
      <Burger
        opened={navigationOpened}
        onClick={onToggleNavigation}
        size="sm"
        aria-label={t('layout.toggleNavigation')}
        aria-expanded={navigationOpened}
      />
      <TrialBanner />
      <UserMenu />
    </Group>
  );
}
