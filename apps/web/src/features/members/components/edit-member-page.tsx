import { useTranslation } from '../../../lib/i18n';
import { useParams } from 'react-router';
import { useSignedInAccount } from '../../../lib/account';
import { useMember } from '../api/get-member';
import { memberRowActions, viewerOf } from '../member-rules';
import { MemberEditor } from './member-editor';

/** §2 /manage-members/:memberId: the change-password tab only when the member is oneself. */
export function EditMemberPage() {
  const { t } = useTranslation();
  const { memberId = '' } = useParams();
  const account = useSignedInAccount();
  const member = useMember(memberId);
  return (
    <MemberEditor
      title={t('page.editMember')}
      member={member}
      canChangePassword={(edited) => edited.id === account.memberId && edited.hasPassword}
      withBackLink
      isEditable={(edited) =>
        edited.id === account.memberId || memberRowActions(edited, viewerOf(account)).includes('edit')
      }
    />
  );
}
