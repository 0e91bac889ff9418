import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ToastHost } from '../components/toast-host';
import { addMessages } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { enSignedIn } from '../locales/en-signed-in';

addMessages(enSignedIn);

/**
 * What every signed-in page needs: its wording, TanStack Query and a place for toasts. None of it
 * is Mantine; pages built with Mantine add MantineShell themselves.
 */
export function SignedInShell({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastHost />
      {children}
    </QueryClientProvider>
  );
}
