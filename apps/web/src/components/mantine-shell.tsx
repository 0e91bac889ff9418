import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import type { ComponentType, ReactNode } from 'react';
import { cssVariablesResolver, theme } from './theme';

/**
 * Mantine's theme and stylesheet, around each part built with Mantine: the pages with forms and
 * tables, and on the signed-in landing only what loads on use (menus, dialogs, filters, toasts).
 * The frame and the application list are plain elements, so the first signed-in page loads no
 * Mantine at all (decision 012). Parts opened together each bring a provider; they share the theme.
 */
export function MantineShell({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      {children}
    </MantineProvider>
  );
}

/** A route's page inside MantineShell. */
export function withMantine(Page: ComponentType): ComponentType {
  return function MantinePage() {
    return (
      <MantineShell>
        <Page />
      </MantineShell>
    );
  };
}
