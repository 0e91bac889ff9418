import { Group, Table, Text } from '@mantine/core';
import { showToast, toastError } from '../../../lib/toasts';
import { uiPermissions, type Invitation } from '@portal/contracts';
import { IconMailForward, IconX } from '@tabler/icons-react';
import { formatDate } from '../../../lib/dates';
import { useTranslation } from '../../../lib/i18n';
import { useSignedInAccount } from '../../../lib/account';
import { useCancelInvitation } from '../api/cancel-invitation';
import { useResendInvitation } from '../api/resend-invitation';
import { useRoleName } from '../api/list-roles';
import { RoleAndAccessCells } from './role-and-access-cells';
import { RowAction } from './row-action';
import { LabelledCell, StackingTable } from '../../../components/stacking-table';
import { useConfirmedRemoval } from './use-confirmed-change';
import { errorText } from '../../../lib/api-error';

/** §2 Invited members tab: open invitations, resent or cancelled by those who may invite. */
export function InvitationsTable({ invitations }: { invitations: readonly Invitation[] }) {
  const { t } = useTranslation();
  const account = useSignedInAccount();
  const canInvite = uiPermissions(account.permissions).includes('INVITE_MEMBER');
  const roleName = useRoleName();
  const resend = useResendInvitation();
  const cancellation = useConfirmedRemoval<Invitation>({
    remove: useCancelInvitation(),
    title: t('members.invitation.cancelTitle'),
    question: (invitation) => t('members.invitation.cancelText', { email: invitation.email }),
    done: (invitation) => t('members.invitation.cancelled', { email: invitation.email }),
  });

  const onResend = (invitation: Invitation) =>
    resend.mutate(invitation.id, {
      onSuccess: () =>
        showToast({
          color: 'green',
          message: t('members.invitation.resent', { email: invitation.email }),
        }),
      onError: (error) => toastError(errorText(error)),
    });

  if (invitations.length === 0) return <Text c="dimmed">{t('members.invitation.none')}</Text>;
  return (
    <>
      <StackingTable
        head={
          <>
            <Table.Th>{t('members.column.email')}</Table.Th>
            <Table.Th>{t('members.column.role')}</Table.Th>
            <Table.Th>{t('members.column.access')}</Table.Th>
            <Table.Th>{t('members.column.sent')}</Table.Th>
            <Table.Th>{t('members.column.expires')}</Table.Th>
            {canInvite && <Table.Th>{t('members.column.actions')}</Table.Th>}
          </>
        }
      >
        {invitations.map((invitation) => (
          <Table.Tr key={invitation.id}>
            <LabelledCell>
              <Text size="sm">{invitation.email}</Text>
            </LabelledCell>
            <RoleAndAccessCells row={invitation} roleName={roleName} />
            <LabelledCell label={t('members.column.sent')}>
              <Text size="sm">{formatDate(invitation.createdAt)}</Text>
            </LabelledCell>
            <LabelledCell label={t('members.column.expires')}>
              <Text size="sm">{formatDate(invitation.expiresAt)}</Text>
            </LabelledCell>
            {canInvite && (
              <LabelledCell label={t('members.column.actions')}>
                <Group gap="xs" wrap="nowrap">
                  <RowAction
                    label={t('members.invitation.resend')}
                    loading={resend.isPending && resend.variables === invitation.id}
                    onClick={() => onResend(invitation)}
                  >
                    <IconMailForward size={18} aria-hidden />
                  </RowAction>
                  <RowAction
                    label={t('members.invitation.cancel')}
                    color="red"
                    onClick={() => cancellation.ask(invitation)}
                  >
                    <IconX size={18} aria-hidden />
                  </RowAction>
                </Group>
              </LabelledCell>
            )}
          </Table.Tr>
        ))}
      </StackingTable>
      {cancellation.dialog}
    </>
  );
}
