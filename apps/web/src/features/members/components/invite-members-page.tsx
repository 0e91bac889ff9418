import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { assignableRoles } from '@portal/contracts';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';
import { StatusAlert } from '../../../components/status-alert';
import { useSignedInAccount } from '../../../lib/account';
import { useCreateInvitations } from '../api/create-invitations';
import { useInvitations } from '../api/list-invitations';
import { InviteMembersFormSchema, type InviteMembersForm } from '../member-forms';
import { applicationScopesFor } from '../../../lib/application-access';
import { inviteMaxEntries, memberChangeErrorText } from '../member-rules';
import { EmailTagsInput } from './email-tags-input';
import { QueryContent } from '../../../components/query-content';
import { RoleAndAccessFields } from './role-and-access-fields';
import { BackToMembersLink } from './back-to-members-link';

const EMPTY_FORM: InviteMembersForm = { emails: [], roleId: '', access: 'all', applicationIds: [] };

/** §2 /invite-members: up to min(50 − pending, 20) addresses, one role, and application access. */
export function InviteMembersPage() {
  const { t } = useTranslation();
  const invitations = useInvitations();
  const [invitedCount, setInvitedCount] = useState<number | null>(null);
  return (
    <Stack gap="lg">
      <BackToMembersLink />
      <Title order={1}>{t('page.inviteMembers')}</Title>
      {invitedCount !== null ? (
        <InviteSuccess count={invitedCount} onInviteMore={() => setInvitedCount(null)} />
      ) : (
        <QueryContent query={invitations} errorTitle={t('members.invitation.loadError')}>
          {(open) => <InviteForm maxEntries={inviteMaxEntries(open.total)} onInvited={setInvitedCount} />}
        </QueryContent>
      )}
    </Stack>
  );
}

function InviteForm({ maxEntries, onInvited }: { maxEntries: number; onInvited: (count: number) => void }) {
  const { t } = useTranslation();
  const account = useSignedInAccount();
  const create = useCreateInvitations();
  const form = useForm({
    resolver: zodResolver(InviteMembersFormSchema),
    defaultValues: EMPTY_FORM,
    mode: 'onChange',
  });
  const {
    control,
    handleSubmit,
    formState: { isValid },
  } = form;

  const onSubmit = handleSubmit(({ emails, roleId: chosenRole, access, applicationIds }) => {
    create.mutate(
      {
        emails,
        roleIds: [chosenRole],
        applicationScopes: applicationScopesFor(chosenRole, access, applicationIds),
      },
      { onSuccess: () => onInvited(emails.length) },
    );
  });

  // Said up front rather than after a refused submission.
  const unavailable = account.enforcedSSO
    ? 'invitation.error.ssoEnforced'
    : maxEntries === 0
      ? 'invitation.error.pendingLimit'
      : null;
  if (unavailable) {
    return (
      <Alert color="yellow" role="status">
        {t(unavailable)}
      </Alert>
    );
  }
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" maw={640}>
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <StatusAlert kind="fail" message={create.isError ? memberChangeErrorText(create.error) : null} />
            <Controller
              control={control}
              name="emails"
              render={({ field }) => (
                <EmailTagsInput
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  maxEntries={maxEntries}
                />
              )}
            />
            <RoleAndAccessFields roleIds={assignableRoles(account.roles.map((role) => role.id))} />
            <Group>
              <Button type="submit" disabled={!isValid} loading={create.isPending}>
                {t('members.invite.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </FormProvider>
    </Paper>
  );
}

function InviteSuccess({ count, onInviteMore }: { count: number; onInviteMore: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="xl" radius="md" maw={640} role="status">
      <Stack align="flex-start" gap="md">
        <Group gap="sm" wrap="nowrap">
          <IconCircleCheck size={32} color="var(--mantine-color-green-7)" aria-hidden />
          <Title order={2} size="h3">
            {t('members.invite.successTitle')}
          </Title>
        </Group>
        <Text>{t('members.invite.successText', { count })}</Text>
        <Group>
          <Button onClick={onInviteMore}>{t('members.invite.more')}</Button>
          <Button component={Link} to="/manage-members" variant="default">
            {t('members.invite.goToMembers')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
