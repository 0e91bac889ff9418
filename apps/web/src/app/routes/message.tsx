import { Anchor } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { MessagePage } from '../../components/message-page';
import { useRouteHandle } from '../route-handle';

/** Pages that only say something: their heading and text come from the route's handle. */
export function Component() {
  const { t } = useTranslation();
  const { title, message } = useRouteHandle();
  return (
    <MessagePage
      title={t(title)}
      text={message && t(message)}
      actions={
        <Anchor component={Link} to="/">
          {t('common.backHome')}
        </Anchor>
      }
    />
  );
}
