import { useLocation } from 'react-router';
import type { AlertKind } from '../../components/status-alert';
import { isRecord } from '../../lib/is-record';

/** What the authentication pages hand each other in navigation state: the address and an alert to show. */
export interface AuthNavigationState {
  email?: string;
  alert?: { kind: AlertKind; message: string };
}

const isAlertKind = (value: unknown): value is AlertKind => value === 'success' || value === 'fail';

/**
 * History state outlives the code that wrote it (a reload after a release, another tab): what
 * does not have the expected shape is ignored.
 */
export function readAuthNavigationState(state: unknown): AuthNavigationState {
  if (!isRecord(state)) return {};
  const email = typeof state.email === 'string' ? state.email : undefined;
  const { kind, message } = isRecord(state.alert) ? state.alert : {};
  const validAlert = isAlertKind(kind) && typeof message === 'string' ? { kind, message } : undefined;
  return { ...(email !== undefined && { email }), ...(validAlert && { alert: validAlert }) };
}

export function useAuthNavigationState(): AuthNavigationState {
  return readAuthNavigationState(useLocation().state);
}

export const failAlert = (message: string) => ({ kind: 'fail', message }) as const;
export const successAlert = (message: string) => ({ kind: 'success', message }) as const;
