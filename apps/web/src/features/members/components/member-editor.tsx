import { Stack, Tabs, Title } from '@mantine/core';
import type { Member } from '@portal/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { ChangePasswordForm } from './change-password-form';
import { MemberProfileForm } from './member-profile-form';
import { MemberSummary } from './member-summary';
import { QueryContent } from '../../../components/query-content';
import { BackToMembersLink } from './back-to-members-link';
import { StatusAlert } from '../../../components/status-alert';

interface MemberEditorProps {
  title: string;
  member: UseQueryResult<Member>;
  /** Whether this member gets the change-password tab (oneself, with a password of one's own). */
  canChangePassword: (member: Member) => boolean;
  withBackLink: boolean;
  /** False for members the viewer may not change (§2 row actions), reached by typing their address. */
  isEditable?: (member: Member) => boolean;
  /** One's own Security tab (on /edit-profile only). */
  security?: ReactNode;
}

/** The edit pages of §2: the profile tab, and the change-password tab where it applies. */
export function MemberEditor({
  title,
  member,
  canChangePassword,
  withBackLink,
  isEditable = () => true,
  security,
}: MemberEditorProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      {withBackLink && <BackToMembersLink />}
      <Title order={1}>{title}</Title>
      <QueryContent query={member} errorTitle={t('members.loadMemberError')}>
        {(edited) => (
          <>
            <MemberSummary member={edited} />
            {!isEditable(edited) ? (
              <StatusAlert kind="fail" message="errors.memberNotEditable" />
            ) : (
              <Tabs defaultValue="profile">
                <Tabs.List>
                  <Tabs.Tab value="profile">{t('members.tab.profile')}</Tabs.Tab>
                  {canChangePassword(edited) && (
                    <Tabs.Tab value="password">{t('members.tab.password')}</Tabs.Tab>
                  )}
                  {security && <Tabs.Tab value="security">{t('members.tab.security')}</Tabs.Tab>}
                </Tabs.List>
                <Tabs.Panel value="profile" pt="lg">
                  <MemberProfileForm member={edited} />
                </Tabs.Panel>
                {canChangePassword(edited) && (
                  <Tabs.Panel value="password" pt="lg">
                    <ChangePasswordForm memberId={edited.id} />
                  </Tabs.Panel>
                )}
                {security && (
                  <Tabs.Panel value="security" pt="lg">
                    {security}
                  </Tabs.Panel>
                )}
              </Tabs>
            )}
          </>
        )}
      </QueryContent>
    </Stack>
  );
}
