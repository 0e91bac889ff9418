import { Button, Group, Modal } from '@mantine/core';
import { MODAL_WIDTH_PX, type Application } from '@portal/contracts';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { StatusAlert } from '../../../components/status-alert';

interface ApplicationModalProps {
  app: Application | null;
  title: string;
  onClose: () => void;
  /** Wider than §9's modal width for a table (the API keys). */
  size?: number;
  children: (app: Application) => ReactNode;
}

/** A §9-width modal about one app, open while there is one. */
export function ApplicationModal({
  app,
  title,
  onClose,
  size = MODAL_WIDTH_PX,
  children,
}: ApplicationModalProps) {
  return (
    <Modal opened={app !== null} onClose={onClose} size={size} title={title}>
      {/* Keyed so each app opens with fresh form state and no earlier error. */}
      {app && <Fragment key={app.applicationId}>{children(app)}</Fragment>}
    </Modal>
  );
}

interface ModalActionsProps {
  /** The failed call's message key or server text, shown above the buttons. */
  error: string | undefined;
  submitLabel: string;
  canSubmit: boolean;
  submitting: boolean;
  color?: 'red';
  onCancel: () => void;
}

/** The end of an application modal's form: what went wrong, then Cancel and the submit button. */
export function ModalActions({
  error,
  submitLabel,
  canSubmit,
  submitting,
  color,
  onCancel,
}: ModalActionsProps) {
  const { t } = useTranslation();
  return (
    <>
      <StatusAlert kind="fail" message={error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('apps.modal.cancel')}
        </Button>
        <Button type="submit" color={color} disabled={!canSubmit} loading={submitting}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
