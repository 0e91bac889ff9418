import { Avatar, Box, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';
import { editProfileState, useSignedInAccount } from '../../../lib/account';

export function UserMenu() {
  const { t } = useTranslation();
  const account = useSignedInAccount();
  const roleIds = account.roles.map((role) => role.id).join(', ');
  return (
    <Menu position="bottom-end" width={220} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label={t('layout.userMenu', { name: account.displayName })}>
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
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/edit-profile" state={editProfileState(account)} leftSection={<IconUserCircle size={16} aria-hidden />}>
          {t('layout.editProfile')}
        </Menu.Item>
        <Menu.Item component={Link} to="/logout" leftSection={<IconLogout size={16} aria-hidden />}>
          {t('layout.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
