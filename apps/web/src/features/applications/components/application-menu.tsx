import { ActionIcon, Menu } from '@mantine/core';
import type { Application } from '@portal/contracts';
import { IconDots, IconPencil, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { ApplicationAction } from '../application-list';

const ACTION_ICONS = {
  editName: IconPencil,
  deactivate: IconPlayerPause,
  reactivate: IconPlayerPlay,
} as const;
const ACTION_LABELS = {
  editName: 'apps.card.editName',
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
 * cards more than everything else on the card together, so the Menu mounts on first use and opens.
 */
export function ApplicationMenu({ app, actions, onAction }: ApplicationMenuProps) {
  const { t } = useTranslation();
  const [used, setUsed] = useState(false);
  const target = useRef<HTMLButtonElement>(null);
  // The button is a new element once the Menu mounts, so the Menu's own focus return has nothing to
  // go back to: focus is put on it when the Menu mounts and again when it closes.
  const focusTarget = () => target.current?.focus();
  useEffect(() => {
    if (used) focusTarget();
  }, [used]);
  const trigger = {
    variant: 'subtle',
    color: 'gray',
    'aria-label': t('apps.card.actions', { name: app.name }),
    children: <IconDots size={18} aria-hidden />,
  } as const;

  if (!used) return <ActionIcon {...trigger} aria-haspopup="menu" onClick={() => setUsed(true)} />;
  return (
    <Menu position="bottom-end" withinPortal defaultOpened onClose={focusTarget}>
      <Menu.Target>
        <ActionIcon {...trigger} ref={target} />
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((action) => {
          const ItemIcon = ACTION_ICONS[action];
          return (
            <Menu.Item
              key={action}
              color={action === 'deactivate' ? 'red' : undefined}
              leftSection={<ItemIcon size={16} aria-hidden />}
              onClick={() => onAction(action, app)}
            >
              {t(ACTION_LABELS[action])}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}
