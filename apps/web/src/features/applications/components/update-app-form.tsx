import { Stack, TextInput } from '@mantine/core';
import { showToast } from '../../../lib/toasts';
import type { Application } from '@portal/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { AppNameInput } from '../../../components/app-name-input';
import { useUpdateApplication } from '../api/update-application';
import { canSaveName } from '../application-list';
import { ModalActions } from './application-modal';

/** §2 edit modal content: read-only ID, the name with its counter, Save only when the name changed. */
export function UpdateAppForm({ app, onClose }: { app: Application; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(app.name);
  const update = useUpdateApplication(app.applicationId);
  const empty = name.trim() === '';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSaveName(app.name, name)) return;
    update.mutate(
      { name: name.trim() },
      {
        onSuccess: () => {
          showToast({ color: 'green', message: t('editAppModal.success') });
          onClose();
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <TextInput label={t('editAppModal.id')} value={app.applicationId} readOnly variant="filled" />
        <AppNameInput
          label={t('editAppModal.name')}
          value={name}
          onChange={setName}
          required
          error={empty ? t('editAppModal.form.error.emptyName') : undefined}
          data-autofocus
        />
        <ModalActions
          error={update.error?.message}
          submitLabel={t('editAppModal.save')}
          canSubmit={canSaveName(app.name, name)}
          submitting={update.isPending}
          onCancel={onClose}
        />
      </Stack>
    </form>
  );
}
