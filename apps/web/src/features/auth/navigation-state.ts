import { useLocation } from 'react-router';
import { z } from 'zod';
import type { AlertKind } from '../../components/status-alert';

const AuthNavigationStateSchema = z
  .object({
    email: z.string().optional(),
    alert: z.object({ kind: z.enum(['success', 'fail'] satisfies AlertKind[]), message: z.string() }).optional(),
  })
  .catch({});

/** What the authentication pages hand each other in navigation state: the address and an alert to show. */
export type AuthNavigationState = z.infer<typeof AuthNavigationStateSchema>;

export function useAuthNavigationState(): AuthNavigationState {
  return AuthNavigationStateSchema.parse(useLocation().state ?? {});
}

export const failAlert = (message: string) => ({ kind: 'fail', message }) as const;
export const successAlert = (message: string) => ({ kind: 'success', message }) as const;
