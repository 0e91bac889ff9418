import type { Application } from '@portal/contracts';
import { IconDots, IconKey, IconPencil, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { MenuOnFirstUse } from '../../../components/menu-on-first-use';
import { IconButton } from '../../../components/plain/buttons';
import { useTranslation } from '../../../lib/i18n';
import type { ApplicationAction } from '../application-list';

const ACTION_ICONS = {
  update: IconPencil,
  apiKeys: IconKey,
  deactivate: IconPlayerPause,
  reactivate: IconPlayerPlay,
} as const;
const ACTION_LABELS = {
  update: 'apps.card.editName',
  apiKeys: 'apps.card.apiKeys',
  deactivate: 'apps.card.deactivate',
  reactivate: 'apps.card.reactivate',
} as const;

interface ApplicationMenuProps {
  app: Application;
  actions: ApplicationAction[];
  onAction: (action: ApplicationAction, app: Application) => void;
}

/**
 * The three-dots menu of a card. A Mantine Menu per card costs a search that brings a new page of
 * cards more than everything else on the card together, so it mounts on first use.
 */
export function ApplicationMenu({ app, actions, onAction }: ApplicationMenuProps) {
  const { t } = useTranslation();
  return (
    <MenuOnFirstUse
      target={(props) => (
        <IconButton label={t('apps.card.actions', { name: app.name })} {...props}>
          <IconDots size={18} aria-hidden />
        </IconButton>
      )}
      entries={actions.map((action) => ({
        key: action,
        label: t(ACTION_LABELS[action]),
        icon: ACTION_ICONS[action],
        color: action === 'deactivate' ? 'red' : undefined,
        onClick: () => onAction(action, app),
      }))}
    />
  );
}
