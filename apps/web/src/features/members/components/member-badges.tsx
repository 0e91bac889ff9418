import { Badge } from '@mantine/core';
import type { Member } from '@portal/contracts';
import { IconCrown } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n';
import { isSsoUser, isSuperAdmin } from '../member-rules';

/** The super-admin badge (with its icon) and the SSO user label (§2). */
export function MemberBadges({ member }: { member: Member }) {
  const { t } = useTranslation();
  return (
    <>
      {isSuperAdmin(member) && (
        <Badge color="yellow" variant="light" leftSection={<IconCrown size={12} aria-hidden />}>
          {t('members.superAdmin')}
        </Badge>
      )}
      {isSsoUser(member.id) && (
        <Badge color="dark" variant="outline">
          {t('members.ssoUser')}
        </Badge>
      )}
    </>
  );
}
