import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A figure under its dimmed label; `large` for the one figure a card is about. */
export function LabelledValue({
  label,
  large,
  children,
}: {
  label: string;
  large?: boolean;
  children: ReactNode;
}) {
  return (
    <div>
      <Text c="dimmed" size="sm">
        {label}
      </Text>
      <Text fw={large ? 600 : 500} fz={large ? 'lg' : undefined}>
        {children}
      </Text>
    </div>
  );
}
