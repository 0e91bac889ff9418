import { Box, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { PENDING_INVITATIONS_MAX, uiPermissions } from '@portal/contracts';
import { IconUserPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useNavigate } from 'react-router';
import { useSignedInAccount } from '../../../lib/account';
import { useInvitations } from '../api/list-invitations';
import { useMembers } from '../api/list-members';
import { inviteButtonState, invitedTab } from '../member-rules';
import { InvitationsTable } from './invitations-table';
import { MembersTable } from './members-table';
import { QueryContent } from '../../../components/query-content';

/**
 * §2 /manage-members: members and invited members, with the invite button when inviting is possible.
 * `settings` goes under the header: organisation-wide member settings (the two-factor requirement).
 */
export function ManageMembersPage({ settings }: { settings?: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const account = useSignedInAccount();
  const members = useMembers(account.memberLimit);
  const invitations = useInvitations();
  const pendingCount = invitations.data?.total ?? 0;
  const tab = invitedTab(account.enforcedSSO, pendingCount);
  const invite = inviteButtonState(
    account,
    uiPermissions(account.permissions),
    members.data?.total ?? account.memberLimit,
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1}>{t('page.manageMembers')}</Title>
          {invitations.isSuccess && (
            <Text c="dimmed" size="sm">
              {t('members.pendingCount', { current: pendingCount, max: PENDING_INVITATIONS_MAX })}
            </Text>
          )}
        </div>
        {invite !== 'hidden' && (
          <Button
            leftSection={<IconUserPlus size={18} aria-hidden />}
            disabled={invite === 'disabled'}
            onClick={() => navigate('/invite-members')}
          >
            {t('page.inviteMembers')}
          </Button>
        )}
      </Group>
      {settings}

      <Tabs defaultValue="members">
        <Tabs.List>
          <Tabs.Tab value="members">{t('members.tab.members')}</Tabs.Tab>
          {tab.visible && (
            <Tabs.Tab
              value="invited"
              rightSection={tab.dot ? <Box w={8} h={8} bg="red.6" bdrs="xl" aria-hidden /> : undefined}
            >
              {t('members.tab.invited')}
            </Tabs.Tab>
          )}
        </Tabs.List>
        <Tabs.Panel value="members" pt="md">
          <QueryContent query={members} errorTitle={t('members.loadError')}>
            {(data) => <MembersTable members={data.results} />}
          </QueryContent>
        </Tabs.Panel>
        {tab.visible && (
          <Tabs.Panel value="invited" pt="md">
            <QueryContent query={invitations} errorTitle={t('members.invitation.loadError')}>
              {(data) => <InvitationsTable invitations={data.results} />}
            </QueryContent>
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
