import type { ErrorCode } from '@portal/contracts';
import { hashKey, MutationCache, QueryCache, QueryClient, type Query } from '@tanstack/react-query';
import { endSession, onSessionEnd, reloadAccount } from './account';
import { ApiError, isNetworkError } from './api-error';
import { browserFirstRender, type FirstRenderData } from './first-render';
import { toastError } from './toasts';

/** Meta of queries whose data does not depend on who is signed in; they survive a sign-out. */
export const SESSION_INDEPENDENT = { sessionIndependent: true };

const TWO_FACTOR_ENROLMENT_REQUIRED: ErrorCode = 'TWO_FACTOR_ENROLMENT_REQUIRED';

const belongsToSession = (query: Query) => query.meta?.sessionIndependent !== true;

function onAnyError(error: unknown): void {
  if (error instanceof ApiError && error.sessionExpired) endSession();
  // The organisation has just required a second factor: the account says so, and the route guard
  // leads the member to set one up.
  else if (error instanceof ApiError && error.code === TWO_FACTOR_ENROLMENT_REQUIRED) void reloadAccount();
  // The id makes calls failing together show one toast.
  else if (isNetworkError(error)) toastError(error.message, error.message);
}

/**
 * How long what a server render was given counts as fresh: as long as an answer fetched with the
 * page would. Without it the page would ask again for what it was rendered with the moment it is
 * taken over (decision 045), doubling the server's work and adding a fetch to the take-over.
 */
export const SERVED_DATA_FRESH_MS = 30_000;

/** A cache holding the queries a server render was given (decision 026). */
export function createQueryClient(firstRender: FirstRenderData | null, servedAt = Date.now()): QueryClient {
  // Until a query the server gave is fetched again its data is the server's, updated at servedAt; a
  // mutation's invalidation still fetches it at once. Another query fetched within the same
  // millisecond as servedAt is not the server's.
  const servedQueries = new Set((firstRender?.queries ?? []).map(({ queryKey }) => hashKey(queryKey)));
  const served = (query: Query) =>
    query.state.dataUpdatedAt === servedAt && servedQueries.has(query.queryHash);
  const client = new QueryClient({
    queryCache: new QueryCache({ onError: onAnyError }),
    mutationCache: new MutationCache({ onError: onAnyError }),
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        staleTime: (query) => (served(query) ? SERVED_DATA_FRESH_MS : 0),
      },
      mutations: { retry: false },
    },
  });
  for (const { queryKey, data } of firstRender?.queries ?? [])
    client.setQueryData(queryKey, data, { updatedAt: servedAt });
  return client;
}

/** The signed-in pages' server data (it loads with them, decision 012). */
export const queryClient = createQueryClient(browserFirstRender());

// Whatever the signed-in user could see is forgotten when the session ends.
onSessionEnd(() => queryClient.removeQueries({ predicate: belongsToSession }));
