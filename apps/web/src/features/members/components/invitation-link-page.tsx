import { Anchor } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';
import { MessagePage } from '../../../components/message-page';

/** Where an unusable invitation link lands (§4): expired, or invalid for any other reason. */
export function InvitationLinkPage({ problem }: { problem: 'expired' | 'invalid' }) {
  const { t } = useTranslation();
  return (
    <MessagePage
      title={t(`invitation.${problem}.title`)}
      text={t(`invitation.${problem}.text`)}
      actions={
        <Anchor component={Link} to="/login">
          {t('auth.backToLogin')}
        </Anchor>
      }
    />
  );
}
