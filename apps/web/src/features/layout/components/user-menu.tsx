import { Avatar, Box, Group, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { MenuOnFirstUse } from '../../../components/menu-on-first-use';
import { editProfileState, useSignedInAccount } from '../../../lib/account';
import { useTranslation } from '../../../lib/i18n';

export function UserMenu() {
  const { t } = useTranslation();
  const account = useSignedInAccount();
  const roleIds = account.roles.map((role) => role.id).join(', ');
  return (
    <MenuOnFirstUse
      width={220}
      target={(props) => (
        <UnstyledButton aria-label={t('layout.userMenu', { name: account.displayName })} {...props}>
          <Group gap="sm" wrap="nowrap">
            <Avatar name={account.displayName} color="indigo" variant="filled" radius="xl" size="md" />
            <Box visibleFrom="sm">
              <Text size="sm" fw={600} lineClamp={1}>
                {account.displayName}
              </Text>
              <Text size="xs" c="dimmed" lineClamp={1}>
                {roleIds}
              </Text>
            </Box>
            <IconChevronDown size={16} aria-hidden />
          </Group>
        </UnstyledButton>
      )}
      entries={[
        {
          key: 'edit-profile',
          label: t('layout.editProfile'),
          icon: IconUserCircle,
          link: { to: '/edit-profile', state: editProfileState(account) },
        },
        { key: 'sign-out', label: t('layout.signOut'), icon: IconLogout, link: { to: '/logout' } },
      ]}
    />
  );
}
