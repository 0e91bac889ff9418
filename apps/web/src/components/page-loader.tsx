import { useTranslation } from '../lib/i18n';
import { Spinner } from './plain/buttons';

export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      aria-label={t('common.loading')}
      style={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}
    >
      <Spinner large />
    </div>
  );
}
