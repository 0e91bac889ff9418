import { Alert } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { translate } from '../lib/i18n';

export type AlertKind = 'success' | 'fail';

/** A success or failure message, given as a message key or the server's own text. */
export function StatusAlert({ kind, message }: { kind: AlertKind; message: string | null | undefined }) {
  if (!message) return null;
  const success = kind === 'success';
  return (
    <Alert
      role={success ? 'status' : 'alert'}
      color={success ? 'green' : 'red'}
      icon={success ? <IconCircleCheck aria-hidden /> : <IconAlertCircle aria-hidden />}
    >
      {translate(message)}
    </Alert>
  );
}
