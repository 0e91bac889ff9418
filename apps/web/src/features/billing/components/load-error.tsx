import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorText } from '../../../lib/api-error';
import { translate } from '../../../lib/i18n';

/** A billing read that failed: what failed as the title, and why. */
export function LoadError({ title, error }: { title: string; error: unknown }) {
  return (
    <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert" title={title}>
      {translate(errorText(error))}
    </Alert>
  );
}
