import { QueryClientProvider } from '@tanstack/react-query';
import { useContext, useState, type ReactNode } from 'react';
import { ToastHost } from '../components/toast-host';
import { addMessages } from '../lib/i18n';
import { FirstRenderContext } from '../lib/first-render';
import { createQueryClient, queryClient } from '../lib/query-client';
import { enSignedIn } from '../locales/en-signed-in';

addMessages(enSignedIn);

/**
 * What every signed-in page needs: its wording, TanStack Query and a place for toasts. None of it
 * is Mantine; pages built with Mantine add MantineShell themselves.
 */
export function SignedInShell({ children }: { children: ReactNode }) {
  const firstRender = useContext(FirstRenderContext);
  // A server render has a cache of its own, holding what that request was given.
  const [client] = useState(() => (firstRender ? createQueryClient(firstRender) : queryClient));
  return (
    <QueryClientProvider client={client}>
      <ToastHost />
      {children}
    </QueryClientProvider>
  );
}
