import { Card, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A section of the Single sign-on page: its heading, which names it, over a card. */
export function SettingsSection({
  id,
  title,
  above,
  children,
}: {
  id: string;
  title: string;
  /** Shown between the heading and the card (the saved connection). */
  above?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack gap="md" component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id}>
        {title}
      </Title>
      {above}
      <SettingsCard>{children}</SettingsCard>
    </Stack>
  );
}

/** The page's cards: less padding on a phone, where width is short. */
export function SettingsCard({ children, labelledBy }: { children: ReactNode; labelledBy?: string }) {
  return (
    <Card withBorder p={{ base: 'md', sm: 'lg' }} aria-labelledby={labelledBy}>
      {children}
    </Card>
  );
}
