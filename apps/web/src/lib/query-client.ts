import { MutationCache, QueryCache, QueryClient, type Query } from '@tanstack/react-query';
import { ApiError, isNetworkError } from './api-client';
import { translate } from './i18n';

/** Meta of queries whose data does not depend on who is signed in; they survive a sign-out. */
export const SESSION_INDEPENDENT = { sessionIndependent: true };
export const ACCOUNT_QUERY_KEY = ['account'] as const;

const belongsToSession = (query: Query) =>
  query.queryKey[0] !== ACCOUNT_QUERY_KEY[0] && query.meta?.sessionIndependent !== true;

/**
 * Forgets everything the signed-in user could see and marks the account as signed out; the
 * route guard then sends a protected page to /login with its path. The account query is kept
 * (set to null) rather than removed so the guard's subscription keeps receiving it.
 */
export function clearSession(client: QueryClient): void {
  client.removeQueries({ predicate: belongsToSession });
  client.setQueryData(ACCOUNT_QUERY_KEY, null);
}

function onAnyError(error: unknown): void {
  if (error instanceof ApiError && error.sessionExpired) clearSession(queryClient);
  else if (isNetworkError(error)) {
    const key = error.message;
    // Loaded on demand like the toast container (already fetched by then), to keep it off the first
    // page's path. The id makes calls failing together show one toast.
    void import('@mantine/notifications').then(({ notifications }) =>
      notifications.show({ id: key, color: 'red', message: translate(key) }),
    );
  }
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onAnyError }),
  mutationCache: new MutationCache({ onError: onAnyError }),
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
