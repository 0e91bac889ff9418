import { Anchor } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { Link, useParams } from 'react-router';
import { CenteredFrame } from '../../components/centered-frame';

/** Card payment stands outside the navigation layout, with a way back to billing in its header. */
export function Component() {
  const { t } = useTranslation();
  const { sub = 'asc' } = useParams();
  return (
    <CenteredFrame title={t('page.payment')}>
      <Anchor component={Link} to={`/billing/${sub}`}>
        {t('payment.backToBilling')}
      </Anchor>
    </CenteredFrame>
  );
}
