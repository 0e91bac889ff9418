import { MessagePage } from '../../components/message-page';
import { TextLink } from '../../components/plain/buttons';
import { useTranslation } from '../../lib/i18n';
import { useRouteHandle } from '../route-handle';

/** Pages that only say something: their heading and text come from the route's handle. */
export function Component() {
  const { t } = useTranslation();
  const { title, message } = useRouteHandle();
  return (
    <MessagePage
      title={t(title)}
      text={message && t(message)}
      actions={<TextLink to="/">{t('common.backHome')}</TextLink>}
    />
  );
}
