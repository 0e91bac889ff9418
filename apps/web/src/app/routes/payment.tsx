import { useParams } from 'react-router';
import { CenteredFrame } from '../../components/centered-frame';
import { TextLink } from '../../components/plain/buttons';
import { useTranslation } from '../../lib/i18n';

/** Card payment stands outside the navigation layout, with a way back to billing in its header. */
export function Component() {
  const { t } = useTranslation();
  const { sub = 'asc' } = useParams();
  return (
    <CenteredFrame title={t('page.payment')}>
      <TextLink to={`/billing/${sub}`}>{t('payment.backToBilling')}</TextLink>
    </CenteredFrame>
  );
}
