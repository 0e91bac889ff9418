import { Center, Loader } from '@mantine/core';
import { useTranslation } from '../lib/i18n';

export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" role="status" aria-label={t('common.loading')}>
      <Loader />
    </Center>
  );
}
