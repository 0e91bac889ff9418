import type { Application } from '@portal/contracts';
import { MantineShell } from '../../../components/mantine-shell';
import { useTranslation } from '../../../lib/i18n';
import { ApplicationModal } from './application-modal';
import { DeactivateAppForm } from './deactivate-app-form';
import { EditAppForm } from './edit-app-form';

interface ApplicationDialogsProps {
  editing: Application | null;
  deactivating: Application | null;
  onCloseEdit: () => void;
  onCloseDeactivate: () => void;
}

/** The edit-name and deactivate modals of the application list, loaded when first opened. */
export default function ApplicationDialogs({
  editing,
  deactivating,
  onCloseEdit,
  onCloseDeactivate,
}: ApplicationDialogsProps) {
  const { t } = useTranslation();
  return (
    <MantineShell>
      <ApplicationModal app={editing} title={t('editAppModal.title')} onClose={onCloseEdit}>
        {(app) => <EditAppForm app={app} onClose={onCloseEdit} />}
      </ApplicationModal>
      <ApplicationModal app={deactivating} title={t('deactivateAppModal.title')} onClose={onCloseDeactivate}>
        {(app) => <DeactivateAppForm app={app} onClose={onCloseDeactivate} />}
      </ApplicationModal>
    </MantineShell>
  );
}
