import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useMember } from '../api/get-member';
import { MemberEditor } from './member-editor';

/**
 * §2 /edit-profile: one's own member; members of an identity provider have no password to change.
 * `security` is the Security tab's content (two-factor authentication, beyond the spec).
 */
export function EditProfilePage({ security }: { security?: ReactNode }) {
  const { t } = useTranslation();
  const member = useMember('me');
  return (
    <MemberEditor
      title={t('page.editProfile')}
      member={member}
      canChangePassword={(me) => me.hasPassword}
      withBackLink={false}
      security={security}
    />
  );
}
