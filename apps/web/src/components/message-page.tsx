import { Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { CenteredFrame } from './centered-frame';

/** A page that only says something (error, forbidden, logged out…) with optional actions under it. */
export function MessagePage({ title, text, actions }: { title: ReactNode; text?: ReactNode; actions?: ReactNode }) {
  return (
    <CenteredFrame title={title}>
      {text && <Text>{text}</Text>}
      {actions && <Group gap="md">{actions}</Group>}
    </CenteredFrame>
  );
}
