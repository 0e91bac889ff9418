import { LOGOUT_DELAY_MS } from '@portal/contracts';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useNavigate } from 'react-router';
import { MessagePage } from '../../../components/message-page';
import { useSignOut } from '../api/sign-out';

export function LogoutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { mutate: signOut } = useSignOut();

  useEffect(() => {
    const timer = setTimeout(
      () => signOut(undefined, { onSettled: () => navigate('/login', { replace: true }) }),
      LOGOUT_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [signOut, navigate]);

  return <MessagePage title={t('logout.title')} />;
}
