import { useLocation } from 'react-router';
import type { AlertKind } from '../../components/status-alert';

/** What the authentication pages hand each other in navigation state: the address and an alert to show. */
export interface AuthNavigationState {
  email?: string;
  alert?: { kind: AlertKind; message: string };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/**
 * History state outlives the code that wrote it (a reload after a release, another tab): what
 * does not have the expected shape is ignored.
 */
export function readAuthNavigationState(state: unknown): AuthNavigationState {
  if (!isRecord(state)) return {};
  const email = typeof state.email === 'string' ? state.email : undefined;
  const { alert } = state;
  const kind: AlertKind | undefined =
    isRecord(alert) && (alert.kind === 'success' || alert.kind === 'fail') ? alert.kind : undefined;
  const validAlert =
    kind && isRecord(alert) && typeof alert.message === 'string'
      ? { kind, message: alert.message }
      : undefined;
  return { ...(email !== undefined && { email }), ...(validAlert && { alert: validAlert }) };
}

export function useAuthNavigationState(): AuthNavigationState {
  return readAuthNavigationState(useLocation().state);
}

export const failAlert = (message: string) => ({ kind: 'fail', message }) as const;
export const successAlert = (message: string) => ({ kind: 'success', message }) as const;
