import { ActionIcon, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';

interface RowActionProps {
  label: string;
  color?: 'red';
  loading?: boolean;
  onClick: () => void;
  children: ReactNode;
}

/** An icon button of a table row, named for screen readers and explained on hover. */
export function RowAction({ label, color, loading, onClick, children }: RowActionProps) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color={color} aria-label={label} loading={loading} onClick={onClick}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
