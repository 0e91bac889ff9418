import { MessagePage } from '../../../components/message-page';
import { TextLink } from '../../../components/plain/buttons';
import { useTranslation } from '../../../lib/i18n';

/** Where an unusable invitation link lands (§4): expired, or invalid for any other reason. */
export function InvitationLinkPage({ problem }: { problem: 'expired' | 'invalid' }) {
  const { t } = useTranslation();
  return (
    <MessagePage
      title={t(`invitation.${problem}.title`)}
      text={t(`invitation.${problem}.text`)}
      actions={<TextLink to="/login">{t('auth.backToLogin')}</TextLink>}
    />
  );
}
