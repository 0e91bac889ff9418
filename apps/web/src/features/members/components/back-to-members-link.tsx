import { Anchor, Group } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';

export function BackToMembersLink() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="/manage-members" size="sm" w="fit-content">
      <Group gap={4} wrap="nowrap">
        <IconArrowLeft size={14} aria-hidden />
        {t('members.backToList')}
      </Group>
    </Anchor>
  );
}
