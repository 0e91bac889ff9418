import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { translate } from '../lib/i18n';
import { Loading } from './page-loader';

interface QueryContentProps<T> {
  query: UseQueryResult<T>;
  errorTitle: string;
  children: (data: T) => ReactNode;
}

/** A loader while the data loads, an alert when it failed, the content once it is there. */
export function QueryContent<T>({ query, errorTitle, children }: QueryContentProps<T>) {
  if (query.isPending) return <Loading />;
  if (query.isError) {
    return (
      <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title={errorTitle}>
        {translate(query.error.message)}
      </Alert>
    );
  }
  return children(query.data);
}
