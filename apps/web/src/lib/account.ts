import { AccountSchema, type Account } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, apiRequest } from './api-client';
import type { AccountState } from './guard';
import { ACCOUNT_QUERY_KEY } from './query-client';

/** The signed-in account, or null when nobody is signed in (the API answers 401). */
async function getAccount(signal: AbortSignal): Promise<Account | null> {
  try {
    return await apiRequest('/api/v1/accounts/me', { schema: AccountSchema, signal });
  } catch (error) {
    if (error instanceof ApiError && error.sessionExpired) return null;
    throw error;
  }
}

// Reloaded explicitly when the user changes (sign-in, sign-out, setup), never by age. A failed
// load is not retried when another component subscribes: /error reads the account too, and a retry
// there would show the loader again and bounce back to /error.
export const accountQueryOptions = queryOptions({
  queryKey: ACCOUNT_QUERY_KEY,
  queryFn: ({ signal }) => getAccount(signal),
  staleTime: Infinity,
  retryOnMount: false,
});

export function useAccount() {
  return useQuery(accountQueryOptions);
}

export function useAccountState(): AccountState {
  const { data, isPending, isError } = useAccount();
  if (isPending) return { status: 'loading' };
  if (isError) return { status: 'error' };
  if (!data) return { status: 'signed-out' };
  return { status: 'signed-in', isAccountFilled: data.isAccountFilled, permissions: data.permissions };
}

/**
 * The account on pages the route guard only renders for a signed-in user. When the session ends
 * (sign-out, expired session) the account turns null a render before the guard leaves the page;
 * meanwhile the page keeps the last account it saw.
 */
export function useSignedInAccount(): Account {
  const { data } = useAccount();
  const [lastSeen, setLastSeen] = useState(data);
  if (data && data !== lastSeen) setLastSeen(data);
  const account = data ?? lastSeen;
  if (!account) throw new Error('The account is only available on pages behind the route guard.');
  return account;
}

/** What /edit-profile receives in navigation state (§2 route table). */
export function editProfileState(account: Account) {
  const { lastLogin, displayName, memberId, roles, email } = account;
  return { lastLogin, displayName, memberId, roles, email };
}
export type EditProfileState = ReturnType<typeof editProfileState>;
