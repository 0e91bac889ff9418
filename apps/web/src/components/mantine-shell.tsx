import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { addMessages } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { enSignedIn } from '../locales/en-signed-in';
import { registerToastContainer } from '../lib/toasts';
import { cssVariablesResolver, theme } from './theme';

addMessages(enSignedIn);

// The toast container loads after the page; toasts raised before it arrives wait in the
// notifications store and appear once it mounts.
const Notifications = lazy(() =>
  import('@mantine/notifications').then((module) => ({ default: module.Notifications })),
);

/**
 * Mantine, its stylesheet, the toast container and TanStack Query, for the pages built with them.
 * The public pages do without, so that the first page a visitor opens loads none of it
 * (decision 012).
 */
export function MantineShell({ children }: { children: ReactNode }) {
  useEffect(registerToastContainer, []);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Suspense fallback={null}>
        <Notifications position="top-right" />
      </Suspense>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
