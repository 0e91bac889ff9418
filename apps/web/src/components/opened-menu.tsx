import { Menu } from '@mantine/core';
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { MantineShell } from './mantine-shell';
import type { MenuEntry } from './menu-on-first-use';

/** The Mantine Menu of MenuOnFirstUse, open as it mounts. */
export default function OpenedMenu({
  target,
  entries,
  width,
  onClose,
}: {
  target: ReactElement;
  entries: readonly MenuEntry[];
  width?: number;
  onClose: () => void;
}) {
  return (
    <MantineShell>
      <Menu position="bottom-end" width={width} shadow="md" withinPortal defaultOpened onClose={onClose}>
        <Menu.Target>{target}</Menu.Target>
        <Menu.Dropdown>
          {entries.map(({ key, label, icon: EntryIcon, color, link, onClick }) => {
            const leftSection = <EntryIcon size={16} aria-hidden />;
            return link ? (
              <Menu.Item
                key={key}
                component={Link}
                to={link.to}
                state={link.state}
                color={color}
                leftSection={leftSection}
              >
                {label}
              </Menu.Item>
            ) : (
              <Menu.Item key={key} color={color} leftSection={leftSection} onClick={onClick}>
                {label}
              </Menu.Item>
            );
          })}
        </Menu.Dropdown>
      </Menu>
    </MantineShell>
  );
}
