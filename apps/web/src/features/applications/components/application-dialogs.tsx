import type { Application } from '@portal/contracts';
import { MantineShell } from '../../../components/mantine-shell';
import { useTranslation } from '../../../lib/i18n';
import { ApiKeysPanel } from './api-keys-panel';
import { ApplicationModal } from './application-modal';
import { DeactivateAppForm } from './deactivate-app-form';
import { UpdateAppForm } from './update-app-form';

interface ApplicationDialogsProps {
  updating: Application | null;
  deactivating: Application | null;
  managingKeys: Application | null;
  onCloseUpdate: () => void;
  onCloseDeactivate: () => void;
  onCloseKeys: () => void;
}

/** The keys' table needs more room than a form: six columns. */
const API_KEYS_MODAL_WIDTH_PX = 880;

/**
 * The application list's modals that update an app's name, manage its API keys and deactivate it,
 * loaded when first opened.
 */
export default function ApplicationDialogs({
  updating,
  deactivating,
  managingKeys,
  onCloseUpdate,
  onCloseDeactivate,
  onCloseKeys,
}: ApplicationDialogsProps) {
  const { t } = useTranslation();
  return (
    <MantineShell>
      <ApplicationModal app={updating} title={t('editAppModal.title')} onClose={onCloseUpdate}>
        {(app) => <UpdateAppForm app={app} onClose={onCloseUpdate} />}
      </ApplicationModal>
      <ApplicationModal
        app={managingKeys}
        title={t('apiKeys.title')}
        size={API_KEYS_MODAL_WIDTH_PX}
        onClose={onCloseKeys}
      >
        {(app) => <ApiKeysPanel app={app} />}
      </ApplicationModal>
      <ApplicationModal app={deactivating} title={t('deactivateAppModal.title')} onClose={onCloseDeactivate}>
        {(app) => <DeactivateAppForm app={app} onClose={onCloseDeactivate} />}
      </ApplicationModal>
    </MantineShell>
  );
}
