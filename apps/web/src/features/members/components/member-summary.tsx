import { Avatar, Group, Stack, Text } from '@mantine/core';
import type { Member } from '@portal/contracts';
import { useTranslation } from '../../../lib/i18n';
import { MemberBadges } from './member-badges';
import { LastLogin } from './last-login';

/** Who is being edited: name, email, badges and last login above the edit tabs. */
export function MemberSummary({ member }: { member: Member }) {
  const { t } = useTranslation();
  return (
    <Group gap="md" wrap="nowrap" align="flex-start">
      <Avatar name={member.displayName} color="indigo" radius="xl" size="lg" />
      <Stack gap={2}>
        <Group gap="xs">
          <Text fw={600}>{member.displayName}</Text>
          <MemberBadges member={member} />
        </Group>
        <Text size="sm" c="dimmed">
          {member.email}
        </Text>
        <Text size="sm" c="dimmed" component="div">
          {t('members.column.lastLogin')}: <LastLogin lastLogin={member.lastLogin} inline />
        </Text>
      </Stack>
    </Group>
  );
}
