import { useAccount } from '../lib/account';
import { useTranslation } from '../lib/i18n';
import { MessagePage } from './message-page';
import { ButtonLink, TextLink } from './plain/buttons';

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
          <TextLink href="/">{t('common.backHome')}</TextLink>
          {account && (
            <ButtonLink to="/logout" variant="default">
              {t('errorPage.backToLogin')}
            </ButtonLink>
          )}
        </>
      }
    />
  );
}
