import { Alert, Center, Loader } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { translate } from '../../../lib/i18n';

interface QueryContentProps<T> {
  query: UseQueryResult<T>;
  errorTitle: string;
  children: (data: T) => ReactNode;
}

/** A loader while the data loads, an alert when it failed, the content once it is there. */
export function QueryContent<T>({ query, errorTitle, children }: QueryContentProps<T>) {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title={errorTitle}>
        {translate(query.error.message)}
      </Alert>
    );
  }
  return children(query.data);
}
