import { Button, List, Popover, Text } from '@mantine/core';
import type { ApplicationScope, Member, RoleId } from '@portal/contracts';
import { useTranslation } from '../../../lib/i18n';
import { LabelledCell } from '../../../components/stacking-table';

interface RoleAndAccessCellsProps {
  /** A member or an invitation: both carry roles and application scopes. */
  row: Pick<Member, 'roles' | 'applicationScopes'>;
  /** The table's `useRoleName()`, asked once for all its rows. */
  roleName: (roleId: RoleId) => string;
}

/** The role and application-access cells of a member's or an invitation's row. */
export function RoleAndAccessCells({ row, roleName }: RoleAndAccessCellsProps) {
  const { t } = useTranslation();
  return (
    <>
      <LabelledCell label={t('members.column.role')}>
        <Text size="sm">{row.roles.map((role) => roleName(role.id)).join(', ')}</Text>
      </LabelledCell>
      <LabelledCell label={t('members.column.access')}>
        <ApplicationAccess scopes={row.applicationScopes} />
      </LabelledCell>
    </>
  );
}

/** 'All', or how many applications the member or invitee is limited to, opening their names. */
function ApplicationAccess({ scopes }: { scopes: readonly ApplicationScope[] | null }) {
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
