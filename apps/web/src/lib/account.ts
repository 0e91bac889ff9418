import type { Account } from '@portal/contracts';
import { useState } from 'react';
import { apiRequest } from './api-client';
import { ApiError } from './api-error';
import type { AccountState } from './guard';
import { createResource, useResource } from './resource';

/** The signed-in account, or null when nobody is signed in (the API answers 401). */
async function getAccount(): Promise<Account | null> {
  try {
    return await apiRequest<Account>('/api/v1/accounts/me');
  } catch (error) {
    if (error instanceof ApiError && error.sessionExpired) return null;
    throw error;
  }
}

/**
 * Loaded when first read and again when the user changes (sign-in, verification, setup, own
 * profile), never by age. A failed load stays failed until the next full page load: /error reads
 * the account too, and a retry there would show the loader again and bounce back to /error.
 */
const account = createResource(getAccount, (data) => data.account);

/** Loads the account again; resolves once the new one is on screen (the route guard acts on it). */
export const reloadAccount = () => account.reload();

/** The account as an answer (an update) returned it. */
export const setAccount = (updated: Account) => account.set(updated);

const sessionEndListeners = new Set<() => void>();

/** Called with every end of the session, so what the signed-in user could see is forgotten. */
export function onSessionEnd(listener: () => void): () => void {
  sessionEndListeners.add(listener);
  return () => sessionEndListeners.delete(listener);
}

/**
 * Marks the user as signed out (sign-out, or the API refusing the session); the route guard then
 * sends a protected page to /login with its path.
 */
export function endSession(): void {
  account.set(null);
  sessionEndListeners.forEach((listener) => listener());
}

export function useAccount() {
  return useResource(account);
}

export function useAccountState(): AccountState {
  const { data, isPending, isError } = useAccount();
  if (isPending) return { status: 'loading' };
  if (isError) return { status: 'error' };
  return accountStateOf(data ?? null);
}

/** What the route guard needs of a loaded account, or of nobody being signed in. */
export function accountStateOf(data: Account | null): AccountState {
  if (!data) return { status: 'signed-out' };
  return {
    status: 'signed-in',
    isAccountFilled: data.isAccountFilled,
    permissions: data.permissions,
    twoFactorEnrolmentRequired: data.twoFactorEnrolmentRequired,
  };
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
  const current = data ?? lastSeen;
  if (!current) throw new Error('The account is only available on pages behind the route guard.');
  return current;
}

/** What /edit-profile receives in navigation state (§2 route table). */
export function editProfileState(signedIn: Account) {
  const { lastLogin, displayName, memberId, roles, email } = signedIn;
  return { lastLogin, displayName, memberId, roles, email };
}
export type EditProfileState = ReturnType<typeof editProfileState>;
