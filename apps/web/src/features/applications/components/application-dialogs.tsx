import type { Application } from '@portal/contracts';
import { MantineShell } from '../../../components/mantine-shell';
import { useTranslation } from '../../../lib/i18n';
import { ApplicationModal } from './application-modal';
import { DeactivateAppForm } from './deactivate-app-form';
import { UpdateAppForm } from './update-app-form';

interface ApplicationDialogsProps {
  updating: Application | null;
  deactivating: Application | null;
  onCloseUpdate: () => void;
  onCloseDeactivate: () => void;
}

/** The application list's modals that update an app's name and deactivate it, loaded when first opened. */
export default function ApplicationDialogs({
  updating,
  deactivating,
  onCloseUpdate,
  onCloseDeactivate,
}: ApplicationDialogsProps) {
  const { t } = useTranslation();
  return (
    <MantineShell>
      <ApplicationModal app={updating} title={t('editAppModal.title')} onClose={onCloseUpdate}>
        {(app) => <UpdateAppForm app={app} onClose={onCloseUpdate} />}
      </ApplicationModal>
      <ApplicationModal app={deactivating} title={t('deactivateAppModal.title')} onClose={onCloseDeactivate}>
        {(app) => <DeactivateAppForm app={app} onClose={onCloseDeactivate} />}
      </ApplicationModal>
    </MantineShell>
  );
}
