import { Anchor, Button } from '@mantine/core';
import { useTranslation } from '../lib/i18n';
import { Link } from 'react-router';
import { useAccount } from '../lib/account';
import { MessagePage } from './message-page';

/** /error, and what any route shows when it fails to load or render. */
export function ErrorPage() {
  const { t } = useTranslation();
  const { data: account } = useAccount();
  return (
    <MessagePage
      title={t('errorPage.title')}
      actions={
        <>
          {/* A full page load, so an account that failed to load is asked for again. */}
          <Anchor href="/">{t('common.backHome')}</Anchor>
          {account && (
            <Button component={Link} to="/logout" variant="default">
              {t('errorPage.backToLogin')}
            </Button>
          )}
        </>
      }
    />
  );
}
