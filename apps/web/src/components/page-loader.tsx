import { useTranslation } from '../lib/i18n';
import { Spinner } from './plain/buttons';

/** A spinner announced as "Loading" (or as `label`), centred in the space it is given. */
export function Loading({ fullPage = false, label }: { fullPage?: boolean; label?: string }) {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      aria-label={label ?? t('common.loading')}
      style={{
        display: 'grid',
        placeItems: 'center',
        ...(fullPage ? { minHeight: '100vh' } : { padding: '2rem 0' }),
      }}
    >
      <Spinner large />
    </div>
  );
}

export function PageLoader() {
  return <Loading fullPage />;
}
