import type { Icon } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useRef, useState, type ReactElement, type Ref } from 'react';

export interface MenuEntry {
  key: string;
  label: string;
  icon: Icon;
  color?: 'red';
  /** A portal page the entry opens, with navigation state. */
  link?: { to: string; state?: unknown };
  onClick?: () => void;
}

export interface MenuTargetProps {
  ref?: Ref<HTMLButtonElement>;
  onClick?: () => void;
  'aria-haspopup'?: 'menu';
}

export interface MenuOnFirstUseProps {
  /** The button that opens the menu, given the props it needs before and after the menu exists. */
  target: (props: MenuTargetProps) => ReactElement;
  entries: readonly MenuEntry[];
  width?: number;
}

// The Menu (a popover placed by Floating UI) loads when a menu is first opened.
const OpenedMenu = lazy(() => import('./opened-menu'));

/**
 * A menu whose Mantine Menu mounts, already open, when its button is first pressed: until then the
 * page holds only the button, and no menu code. The button is a new element once the Menu mounts,
 * so focus is put on it then, and again whenever the menu closes.
 */
export function MenuOnFirstUse({ target, entries, width }: MenuOnFirstUseProps) {
  const [used, setUsed] = useState(false);
  const targetRef = useRef<HTMLButtonElement>(null);
  const focusTarget = () => targetRef.current?.focus();
  useEffect(() => {
    if (used) focusTarget();
  }, [used]);

  const idle = target({ onClick: () => setUsed(true), 'aria-haspopup': 'menu' });
  if (!used) return idle;
  return (
    <Suspense fallback={idle}>
      <OpenedMenu target={target({ ref: targetRef })} entries={entries} width={width} onClose={focusTarget} />
    </Suspense>
  );
}
