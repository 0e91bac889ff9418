import { Stack, Text, TextInput } from '@mantine/core';
import { showToast } from '../../../lib/toasts';
import type { Application } from '@portal/contracts';
import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from '../../../lib/i18n';
import { useDeactivateApplication } from '../api/deactivate-application';
import { ModalActions } from './application-modal';

/** A real deactivation: the user types the app's name, as the server also checks. */
export function DeactivateAppForm({ app, onClose }: { app: Application; onClose: () => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const deactivate = useDeactivateApplication(app.applicationId);
  const matches = typed.trim() === app.name.trim();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!matches) return;
    deactivate.mutate(
      { confirmName: typed.trim() },
      {
        onSuccess: () => {
          showToast({
            color: 'green',
            message: t('deactivateAppModal.success', { name: app.name }),
          });
          onClose();
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <Text size="sm">
          <Trans
            i18nKey="deactivateAppModal.text"
            values={{ name: app.name }}
            components={{ strong: <strong /> }}
          />
        </Text>
        <TextInput
          label={t('deactivateAppModal.confirmLabel')}
          placeholder={app.name}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          autoComplete="off"
          data-autofocus
        />
        <ModalActions
          error={deactivate.error?.message}
          submitLabel={t('deactivateAppModal.confirm')}
          canSubmit={matches}
          submitting={deactivate.isPending}
          color="red"
          onCancel={onClose}
        />
      </Stack>
    </form>
  );
}
