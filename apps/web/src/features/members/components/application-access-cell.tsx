import { Button, List, Popover, Text } from '@mantine/core';
import type { ApplicationScope } from '@portal/contracts';
import { useTranslation } from '../../../lib/i18n';

/** 'All', or how many applications the member or invitee is limited to, opening their names. */
export function ApplicationAccessCell({ scopes }: { scopes: readonly ApplicationScope[] | null }) {
  const { t } = useTranslation();
  if (scopes === null) return <Text size="sm">{t('members.access.allShort')}</Text>;
  return (
    <Popover position="bottom-start" withArrow shadow="md">
      <Popover.Target>
        <Button variant="light" size="compact-sm">
          {t('members.access.count', { count: scopes.length })}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Text size="sm" fw={600} mb="xs">
          {t('members.access.listTitle')}
        </Text>
        <List size="sm" spacing={4}>
          {scopes.map((scope) => (
            <List.Item key={scope.id}>{scope.name}</List.Item>
          ))}
        </List>
      </Popover.Dropdown>
    </Popover>
  );
}
