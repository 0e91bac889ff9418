import { Group, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import type { Member } from '@portal/contracts';
import { IconChevronDown, IconChevronUp, IconPencil, IconTrash, IconUserCircle } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useNavigate } from 'react-router';
import { editProfileState, useSignedInAccount } from '../../../lib/account';
import { useDeleteMember } from '../api/delete-member';
import { useRoleName } from '../api/list-roles';
import { memberRowActions, sortMembersByName, type SortDirection, viewerOf } from '../member-rules';
import { RoleAndAccessCells } from './role-and-access-cells';
import { LastLogin } from './last-login';
import { MemberBadges } from './member-badges';
import { RowAction } from './row-action';
import { LabelledCell, StackingTable } from '../../../components/stacking-table';
import { useConfirmedRemoval } from './use-confirmed-change';

/** §2 Members tab: sorted by display name (ascending first), with each row's allowed actions. */
export function MembersTable({ members }: { members: readonly Member[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const account = useSignedInAccount();
  const roleName = useRoleName();
  const removal = useConfirmedRemoval<Member>({
    remove: useDeleteMember(),
    title: t('members.deleteTitle'),
    question: (member) => t('members.deleteText', { name: member.displayName, email: member.email }),
    done: (member) => t('members.deleted', { name: member.displayName }),
  });
  const [direction, setDirection] = useState<SortDirection>('asc');
  const sorted = useMemo(() => sortMembersByName(members, direction), [members, direction]);
  const viewer = viewerOf(account);

  const SortIcon = direction === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <>
      <StackingTable
        head={
          <>
            <Table.Th aria-sort={direction === 'asc' ? 'ascending' : 'descending'}>
              <UnstyledButton
                onClick={() => setDirection(direction === 'asc' ? 'desc' : 'asc')}
                fw={600}
                fz="sm"
              >
                <Group gap={4} wrap="nowrap">
                  {t('members.column.name')}
                  <SortIcon size={14} aria-hidden />
                </Group>
              </UnstyledButton>
            </Table.Th>
            <Table.Th>{t('members.column.role')}</Table.Th>
            <Table.Th>{t('members.column.access')}</Table.Th>
            <Table.Th>{t('members.column.lastLogin')}</Table.Th>
            <Table.Th>{t('members.column.actions')}</Table.Th>
          </>
        }
      >
        {sorted.map((member) => {
          const actions = memberRowActions(member, viewer);
          return (
            <Table.Tr key={member.id}>
              <LabelledCell>
                <Stack gap={2}>
                  <Group gap="xs">
                    <Text size="sm" fw={600}>
                      {member.displayName}
                    </Text>
                    <MemberBadges member={member} />
                  </Group>
                  <Text size="sm" c="dimmed">
                    {member.email}
                  </Text>
                </Stack>
              </LabelledCell>
              <RoleAndAccessCells row={member} roleName={roleName} />
              <LabelledCell label={t('members.column.lastLogin')}>
                <LastLogin lastLogin={member.lastLogin} />
              </LabelledCell>
              <LabelledCell label={t('members.column.actions')}>
                <Group gap="xs" wrap="nowrap">
                  {actions.includes('editProfile') && (
                    <RowAction
                      label={t('layout.editProfile')}
                      onClick={() => navigate('/edit-profile', { state: editProfileState(account) })}
                    >
                      <IconUserCircle size={18} aria-hidden />
                    </RowAction>
                  )}
                  {actions.includes('edit') && (
                    <RowAction
                      label={t('members.action.edit')}
                      onClick={() => navigate(`/manage-members/${encodeURIComponent(member.id)}`)}
                    >
                      <IconPencil size={18} aria-hidden />
                    </RowAction>
                  )}
                  {actions.includes('delete') && (
                    <RowAction
                      label={t('members.action.delete')}
                      color="red"
                      onClick={() => removal.ask(member)}
                    >
                      <IconTrash size={18} aria-hidden />
                    </RowAction>
                  )}
                </Group>
              </LabelledCell>
            </Table.Tr>
          );
        })}
      </StackingTable>
      {removal.dialog}
    </>
  );
}
